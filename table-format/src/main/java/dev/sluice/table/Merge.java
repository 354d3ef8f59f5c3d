package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.merge.MergeKey;
import dev.sluice.table.internal.merge.SourceIndex;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.internal.write.ChangeDataWriter;
import dev.sluice.table.internal.write.NewFile;
import dev.sluice.table.internal.write.SchemaEnforcer;
import dev.sluice.table.internal.write.RewriteFiles;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * MERGE of source rows into the table by key, copy-on-write. Matched target rows are updated
 * (all source columns over the target's) or deleted by the first matched clause whose condition
 * holds; unmatched source rows are inserted. Only files that may hold a source key (by partition
 * values and min/max stats) are read, and only files with a changed row are rewritten. With the
 * change data feed on, pre/post images, deletes and inserts go to {@code _change_data}.
 *
 * <p>The source is held in memory (a micro-batch), so a conflict can re-run the MERGE on a fresh snapshot.
 */
public final class Merge extends WriteOperation<Merge> {
  private static final int MAX_IN_LIST = 512;

  private StructType sourceSchema;
  private List<Row> sourceRows = List.of();
  private List<String> keys = List.of();
  private final List<Clause> matched = new ArrayList<>();
  private boolean insertNotMatched;
  private MergeCondition insertCondition = MergeCondition.always();
  private String latestBy;
  private Predicate targetFilter;
  private boolean mergeSchema;
  private final List<String> clauseText = new ArrayList<>();

  Merge(TableContext context) {
    super(context, 3);
  }

  /** The source rows and their schema; columns are matched to the table's by name. */
  public Merge source(StructType schema, List<Row> rows) {
    this.sourceSchema = schema;
    this.sourceRows = List.copyOf(rows);
    return this;
  }

  /** The key columns: a target row matches a source row when all keys are equal (and not null). */
  public Merge on(String... keyColumns) {
    this.keys = List.of(keyColumns);
    return this;
  }

  /** When matched, replace the target row's columns with the source's. */
  public Merge whenMatchedUpdate() {
    return whenMatchedUpdate(MergeCondition.always(), "true");
  }

  /** When matched and {@code condition} holds, update; {@code description} is recorded in commitInfo. */
  public Merge whenMatchedUpdate(MergeCondition condition, String description) {
    matched.add(new Clause(false, condition));
    clauseText.add("update when " + description);
    return this;
  }

  /** When matched, delete the target row. */
  public Merge whenMatchedDelete() {
    return whenMatchedDelete(MergeCondition.always(), "true");
  }

  public Merge whenMatchedDelete(MergeCondition condition, String description) {
    matched.add(new Clause(true, condition));
    clauseText.add("delete when " + description);
    return this;
  }

  /** When a source row matches no target row, insert it. */
  public Merge whenNotMatchedInsert() {
    this.insertNotMatched = true;
    return this;
  }

  /** Insert unmatched source rows for which {@code condition} holds (its target side is null). */
  public Merge whenNotMatchedInsert(MergeCondition condition) {
    this.insertNotMatched = true;
    this.insertCondition = condition;
    return this;
  }

  /**
   * Several source rows per key are allowed: the one with the greatest {@code column} value wins
   * (nulls lose). Without it they are a {@link dev.sluice.table.exceptions.DuplicateMergeKeyException}.
   */
  public Merge latestBy(String column) {
    this.latestBy = column;
    return this;
  }

  /** Restricts the target rows considered (e.g. to the partitions a batch touches), narrowing conflicts. */
  public Merge targetFilter(Predicate predicate) {
    this.targetFilter = predicate;
    return this;
  }

  /** Adds source columns the table lacks as nullable columns. */
  public Merge mergeSchema(boolean value) {
    this.mergeSchema = value;
    return this;
  }

  /**
   * @throws dev.sluice.table.exceptions.DuplicateMergeKeyException when a key repeats in the source without latestBy
   * @throws dev.sluice.table.exceptions.ConcurrentModificationException when conflicts persist after the retries
   */
  public CommitResult commit() {
    if (sourceSchema == null || keys.isEmpty()) {
      throw new IllegalStateException("A MERGE needs source(schema, rows) and on(keys...)");
    }
    return withRetries(this::attempt);
  }

  private CommitResult attempt() {
    SnapshotState snapshot = context.latestState();
    OptimisticTransaction txn = context.newTransaction(snapshot);
    if (hasTxn() && txn.setTransaction(appId, appVersion)) {
      return CommitResult.skipped(snapshot.version());
    }
    String table = context.log().tablePath();
    SchemaEnforcer.Plan plan = SchemaEnforcer.plan(snapshot.schema(), sourceSchema, mergeSchema, table);
    if (plan.evolved()) {
      var m = snapshot.metadata();
      txn.updateMetadata(new dev.sluice.table.internal.actions.Metadata(m.id(), m.name(), m.description(),
          m.formatProvider(), m.formatOptions(), plan.tableSchema().toJson(), m.partitionColumns(), m.configuration(),
          m.createdTime()));
    }
    StructType schema = plan.tableSchema();
    int[] targetKeys = SourceIndex.positions(schema, keys, "target table");
    SourceIndex source = new SourceIndex(sourceSchema, keys, sourceRows, latestBy);
    Predicate scope = keyPredicate(source);
    txn.readPredicate(scope, add -> context.mightMatch(snapshot, add, scope));
    MergeRows pair = new MergeRows(schema, sourceSchema);
    List<String> partitionColumns = snapshot.metadata().partitionColumns();
    RewriteFiles writer = new RewriteFiles(context, schema, partitionColumns, options.forTable(txn.metadata().configuration()), ChangeFeed.enabled(txn.metadata()));
    Counts counts = new Counts();
    Set<MergeKey> matchedKeys = new HashSet<>();
    long now = context.clock().millis();
    List<NewFile> added;
    try {
      for (AddFile file : context.prune(snapshot, scope)) {
        txn.readFile(file);
        if (mergeFile(snapshot, file, schema, targetKeys, plan, source, pair, writer, matchedKeys, counts)) {
          txn.remove(file.toRemove(now, true));
          counts.filesRemoved++;
        }
      }
      if (insertNotMatched) {
        List<Row> unmatched = new ArrayList<>(source.nullKeyed());
        source.byKey().forEach((k, r) -> {
          if (!matchedKeys.contains(k)) {
            unmatched.add(r);
          }
        });
        for (Row r : unmatched) {
          if (insertCondition.test(pair.with(null, r))) {
            Row inserted = project(r, plan.inputIndex(), null);
            writer.write(inserted);
            counts.inserted++;
            writer.change(inserted, ChangeDataWriter.INSERT);
          }
        }
      }
      added = writer.finish(txn);
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
    Map<String, String> metrics = withExtra(OptimisticTransaction.metrics(
        "numSourceRows", sourceRows.size(),
        "numTargetRowsInserted", counts.inserted,
        "numTargetRowsUpdated", counts.updated,
        "numTargetRowsDeleted", counts.deleted,
        "numTargetRowsCopied", counts.copied,
        "numTargetFilesAdded", added.size(),
        "numTargetFilesRemoved", counts.filesRemoved,
        "numTargetFilesScanned", counts.filesScanned));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("predicate", Json.stringList(List.of(mergeConditionText())));
    params.put("matchedPredicates", Json.stringList(clauseText));
    params.put("notMatchedPredicates", Json.stringList(insertNotMatched ? List.of("insert") : List.of()));
    long version = txn.commit(operationName == null ? "MERGE" : operationName, params, metrics);
    return new CommitResult(version, false, metrics);
  }

  /** Rewrites one candidate file if any of its rows changes; returns whether it did. */
  private boolean mergeFile(SnapshotState snapshot, AddFile file, StructType schema, int[] targetKeys,
      SchemaEnforcer.Plan plan, SourceIndex source, MergeRows pair, RewriteFiles writer, Set<MergeKey> matchedKeys,
      Counts counts) {
    counts.filesScanned++;
    List<Row> out = new ArrayList<>();
    List<Row[]> changed = new ArrayList<>();
    boolean touched = false;
    try (CloseableIterator<Row> rows = context.readRows(snapshot, file, schema)) {
      while (rows.hasNext()) {
        Row target = rows.next();
        MergeKey key = MergeKey.of(target, targetKeys);
        Row src = key == null ? null : source.byKey().get(key);
        if (src == null) {
          out.add(target);
          continue;
        }
        matchedKeys.add(key);
        Clause clause = firstApplicable(pair.with(target, src));
        if (clause == null) {
          out.add(target);
        } else if (clause.delete) {
          touched = true;
          counts.deleted++;
          changed.add(new Row[] {target, null});
        } else {
          touched = true;
          counts.updated++;
          Row updated = project(src, plan.inputIndex(), target);
          out.add(updated);
          changed.add(new Row[] {target, updated});
        }
      }
    }
    if (!touched) {
      return false;
    }
    for (Row r : out) {
      writer.write(r);
    }
    counts.copied += out.size() - changed.stream().filter(c -> c[1] != null).count();
    for (Row[] c : changed) {
      if (c[1] == null) {
        writer.change(c[0], ChangeDataWriter.DELETE);
      } else {
        writer.change(c[0], ChangeDataWriter.UPDATE_PREIMAGE);
        writer.change(c[1], ChangeDataWriter.UPDATE_POSTIMAGE);
      }
    }
    return true;
  }

  private Clause firstApplicable(MergeRows rows) {
    for (Clause c : matched) {
      if (c.condition.test(rows)) {
        return c;
      }
    }
    return null;
  }

  /** A source row in table column order; columns the source lacks keep the target's value (null on insert). */
  private static Row project(Row src, int[] inputIndex, Row target) {
    Object[] out = new Object[inputIndex.length];
    for (int i = 0; i < out.length; i++) {
      if (inputIndex[i] >= 0) {
        out[i] = src.get(inputIndex[i]);
      } else if (target != null && i < target.size()) {
        out[i] = target.get(i);
      }
    }
    return Row.of(out);
  }

  /** The target rows a MERGE may touch: key values in the source (IN list or range), within the target filter. */
  private Predicate keyPredicate(SourceIndex source) {
    Predicate scope = targetFilter == null ? Predicate.alwaysTrue() : targetFilter;
    if (!source.nullKeyed().isEmpty() && source.byKey().isEmpty()) {
      return Predicate.and(scope, Predicate.alwaysFalse());
    }
    for (int i = 0; i < keys.size(); i++) {
      TreeSet<Object> values = new TreeSet<>(Merge::compare);
      boolean comparable = true;
      for (MergeKey k : source.byKey().keySet()) {
        Object v = k.part(i);
        if (!(v instanceof Comparable) || v instanceof java.nio.ByteBuffer) {
          comparable = false;
          break;
        }
        values.add(v);
      }
      if (!comparable || values.isEmpty()) {
        continue;
      }
      Predicate keyScope = values.size() <= MAX_IN_LIST
          ? Predicate.in(keys.get(i), new ArrayList<>(values))
          : Predicate.and(Predicate.ge(keys.get(i), values.first()), Predicate.le(keys.get(i), values.last()));
      scope = Predicate.and(scope, keyScope);
    }
    return scope;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  private String mergeConditionText() {
    StringBuilder sb = new StringBuilder();
    for (String k : keys) {
      if (sb.length() > 0) {
        sb.append(" AND ");
      }
      sb.append("target.").append(k).append(" = source.").append(k);
    }
    return sb.toString();
  }

  private record Clause(boolean delete, MergeCondition condition) {}

  private static final class Counts {
    long inserted;
    long updated;
    long deleted;
    long copied;
    int filesRemoved;
    int filesScanned;
  }
}
