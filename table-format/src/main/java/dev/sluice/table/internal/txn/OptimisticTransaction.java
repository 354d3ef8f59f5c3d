package dev.sluice.table.internal.txn;

import dev.sluice.table.exceptions.CommitStateUnknownException;
import dev.sluice.table.exceptions.ConcurrentModificationException;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.exceptions.StorageOutcomeUnknownException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.ActionParser;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.actions.SetTransaction;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.internal.log.FileNames;
import dev.sluice.table.internal.log.ProtocolSupport;
import dev.sluice.table.internal.maintenance.ExpiredLogCleanup;
import dev.sluice.table.internal.replay.SnapshotState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One optimistic write to a table: it records what it read from its snapshot and what it changes,
 * then commits by creating the next {@code _delta_log/N.json} with put-if-absent, resolving races
 * with other writers by Delta's conflict rules ({@link ConflictChecker}).
 *
 * <p>Not thread-safe: one thread builds and commits a transaction.
 */
public final class OptimisticTransaction {
  private static final Logger LOG = LoggerFactory.getLogger(OptimisticTransaction.class);
  public static final String ENGINE_INFO = "Sluice/0.1.0";

  private final DeltaLog log;
  private final SnapshotState snapshot;
  private final Function<String, String> canonicalize;
  private final CommitPolicy policy;
  private final Clock clock;
  private final ReadSet reads = new ReadSet();
  private final List<AddFile> adds = new ArrayList<>();
  private final List<RemoveFile> removes = new ArrayList<>();
  private final List<AddCdcFile> cdcFiles = new ArrayList<>();
  private final Set<String> writtenKeys = new LinkedHashSet<>();
  private java.util.function.Predicate<AddFile> addedFileMatcher = add -> true;
  private Metadata newMetadata;
  private Protocol newProtocol;
  private SetTransaction txn;
  private boolean committed;

  /**
   * @param snapshot the snapshot the transaction reads, or null when it creates the table
   * @param canonicalize maps a log path to the file identity used by replay
   */
  public OptimisticTransaction(
      DeltaLog log, SnapshotState snapshot, Function<String, String> canonicalize, CommitPolicy policy, Clock clock) {
    this.log = log;
    this.snapshot = snapshot;
    this.canonicalize = canonicalize;
    this.policy = policy;
    this.clock = clock;
  }

  /** The snapshot this transaction reads; empty when it creates the table. */
  public Optional<SnapshotState> snapshot() {
    return Optional.ofNullable(snapshot);
  }

  public long readVersion() {
    return snapshot == null ? -1 : snapshot.version();
  }

  /** Records that the transaction read rows matching {@code predicate}; {@code matcher} tells if an added file may hold such rows. */
  public void readPredicate(Predicate predicate, java.util.function.Predicate<AddFile> matcher) {
    reads.predicate(predicate);
    java.util.function.Predicate<AddFile> previous = addedFileMatcher;
    boolean first = reads.predicates().size() == 1;
    addedFileMatcher = first ? matcher : previous.or(matcher);
  }

  public void readWholeTable() {
    reads.wholeTable();
  }

  public void readFile(AddFile file) {
    reads.file(canonicalize.apply(file.path()));
  }

  /**
   * Makes the commit idempotent for {@code (appId, version)}. Returns true when the table already has
   * that version (or a later one) for the application: the caller should skip its write.
   */
  public boolean setTransaction(String appId, long version) {
    reads.appId(appId);
    txn = new SetTransaction(appId, version, clock.millis());
    return alreadyCommitted(snapshot);
  }

  private boolean alreadyCommitted(SnapshotState state) {
    if (txn == null || state == null) {
      return false;
    }
    OptionalLong current = state.transactionVersion(txn.appId());
    return current.isPresent() && current.getAsLong() >= txn.version();
  }

  public void updateMetadata(Metadata metadata) {
    this.newMetadata = metadata;
  }

  public void updateProtocol(Protocol protocol) {
    this.newProtocol = protocol;
  }

  /** Adds a data file that the caller has written at {@code key} (deleted again if the commit fails for sure). */
  public void add(AddFile file, String key) {
    adds.add(file);
    writtenKeys.add(key);
  }

  /**
   * Adds a data file the table already has, in a new version (a new deletion vector): its data file is never
   * deleted when the commit fails.
   */
  public void reAdd(AddFile file) {
    adds.add(file);
  }

  /** Another file this transaction wrote (e.g. a DV file), deleted again if the commit fails for sure. */
  public void wrote(String key) {
    writtenKeys.add(key);
  }

  public void remove(RemoveFile file) {
    removes.add(file);
  }

  public void addCdc(AddCdcFile file, String key) {
    cdcFiles.add(file);
    writtenKeys.add(key);
  }

  /** Metadata in force for this commit (the new one if set). */
  public Metadata metadata() {
    return newMetadata != null ? newMetadata : snapshot.metadata();
  }

  public Protocol protocol() {
    return newProtocol != null ? newProtocol : snapshot.protocol();
  }

  /**
   * Commits, retrying at later versions while other writers' commits don't conflict.
   *
   * @return the committed version
   * @throws ConcurrentModificationException (a subtype) when a winner conflicts; data files written
   *     by this transaction are deleted
   * @throws CommitStateUnknownException when the outcome can't be determined; nothing is deleted
   */
  public long commit(String operation, Map<String, String> parameters, Map<String, String> metrics) {
    if (committed) {
      throw new IllegalStateException("A transaction commits once");
    }
    committed = true;
    checkAllowed();
    String txnId = UUID.randomUUID().toString();
    boolean blindAppend = reads.readsNoData() && removes.isEmpty() && newMetadata == null && newProtocol == null && !adds.isEmpty()
        && snapshot != null;
    CommitInfo info = new CommitInfo(
        clock.millis(), operation, parameters, snapshot == null ? null : snapshot.version(), "Serializable",
        blindAppend, metrics, ENGINE_INFO, txnId, null, null);
    byte[] body = ActionParser.serializeCommit(actions(info));
    ConflictChecker checker = new ConflictChecker(
        reads, removedPaths(), addedFileMatcher, canonicalize, log.tablePath());
    try {
      long version = commitLoop(body, txnId, checker);
      LOG.info("Committed version {} of {}: {}, {} files added, {} removed{}", version,
          log.store().uriOf(log.tablePath()), operation, adds.size(), removes.size(),
          txn == null ? "" : ", txn(" + txn.appId() + ", " + txn.version() + ")");
      postCommit(version);
      return version;
    } catch (ConcurrentModificationException | StorageException | InvalidOperationException e) {
      if (!(e instanceof CommitStateUnknownException)) {
        cleanUpWrittenFiles();
      }
      throw e;
    }
  }

  private long commitLoop(byte[] body, String txnId, ConflictChecker checker) {
    long attempt = readVersion() + 1;
    int conflicts = 0;
    int ioFailures = 0;
    int unknown = 0;
    while (true) {
      String file = FileNames.deltaFile(log.logPath(), attempt);
      try {
        log.store().create(file, body);
        // 1. We created N.json: the commit is durable and visible.
        return attempt;
      } catch (ObjectAlreadyExistsException lost) {
        // 2. Another writer won version N: check every winner against what we read and wrote,
        //    then retry after the newest one (no blind +1: re-list).
        if (++conflicts > policy.maxConflictRetries()) {
          throw new CommitStateUnknownException("Gave up committing to " + log.tablePath() + " after "
              + policy.maxConflictRetries() + " lost races with other writers; nothing was committed. Retry later.");
        }
        attempt = checkWinners(attempt, checker);
        policy.backoff(conflicts);
      } catch (StorageOutcomeUnknownException e) {
        // 3. The create may or may not have happened: read N.json back and compare txnId.
        Optional<Boolean> ours = readBack(attempt, txnId);
        if (ours.isPresent() && ours.get()) {
          return attempt;
        }
        if (ours.isPresent()) {
          attempt = checkWinners(attempt, checker);
        } else if (++unknown > policy.maxIoRetries()) {
          throw new CommitStateUnknownException("Committing version " + attempt + " of " + log.tablePath()
              + " timed out " + unknown + " times and reading it back found nothing; the outcome is unknown."
              + " Data files were kept. Re-read the table before retrying.", e);
        }
        policy.backoff(unknown);
      } catch (StorageException e) {
        // 4. A failure known to have written nothing: retry the same version a bounded number of times.
        if (++ioFailures > policy.maxIoRetries()) {
          throw e;
        }
        LOG.warn("Commit of version {} to {} failed ({}); retrying", attempt, log.tablePath(), e.getMessage());
        policy.backoff(ioFailures);
      }
    }
  }

  /** Checks winners from {@code from} to the latest version; returns the next version to try. */
  private long checkWinners(long from, ConflictChecker checker) {
    long v = from;
    while (true) {
      Optional<List<Action>> winner = log.tryReadCommit(v);
      if (winner.isEmpty()) {
        return v;
      }
      checker.check(v, winner.get());
      v++;
    }
  }

  /** Present(true) if N.json exists and is ours, present(false) if someone else's, empty if absent. */
  private Optional<Boolean> readBack(long version, String txnId) {
    try {
      Optional<List<Action>> found = log.tryReadCommit(version);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      for (Action a : found.get()) {
        if (a instanceof CommitInfo ci) {
          return Optional.of(txnId.equals(ci.txnId()));
        }
      }
      return Optional.of(false);
    } catch (StorageException e) {
      throw new CommitStateUnknownException("Committing version " + version + " of " + log.tablePath()
          + " timed out and reading it back failed too (" + e.getMessage() + "); the outcome is unknown."
          + " Data files were kept. Re-read the table before retrying.", e);
    }
  }

  private void checkAllowed() {
    Protocol protocol = protocol();
    Metadata metadata = metadata();
    ProtocolSupport.checkWritable(protocol, metadata, log.tablePath());
    boolean appendOnly = "true".equalsIgnoreCase(metadata.configuration().get("delta.appendOnly"));
    if (appendOnly && removes.stream().anyMatch(RemoveFile::dataChange)) {
      throw new InvalidOperationException("Table " + log.tablePath() + " is append-only (delta.appendOnly=true):"
          + " this operation would delete or change rows. Write to another table, or set delta.appendOnly=false.");
    }
  }

  private List<Action> actions(CommitInfo info) {
    List<Action> out = new ArrayList<>();
    out.add(info);
    if (newProtocol != null) {
      out.add(newProtocol);
    }
    if (newMetadata != null) {
      out.add(newMetadata);
    }
    if (txn != null) {
      out.add(txn);
    }
    out.addAll(removes);
    out.addAll(adds);
    out.addAll(cdcFiles);
    return out;
  }

  private Set<String> removedPaths() {
    Set<String> out = new LinkedHashSet<>();
    for (RemoveFile r : removes) {
      out.add(canonicalize.apply(r.path()));
    }
    return out;
  }

  private void postCommit(long version) {
    Metadata metadata = metadata();
    long interval = checkpointInterval(metadata.configuration());
    if (version > 0 && version % interval == 0) {
      try {
        log.checkpoint(log.snapshotAt(version));
        LOG.info("Wrote the checkpoint of version {} of {}", version, log.store().uriOf(log.tablePath()));
        ExpiredLogCleanup.afterCheckpoint(log, metadata, clock);
      } catch (RuntimeException e) {
        // The commit is durable; a missing checkpoint only makes the next snapshot load slower.
        LOG.warn("Writing the checkpoint for version {} of {} failed: {}", version, log.tablePath(), e.toString());
      }
    }
  }

  static long checkpointInterval(Map<String, String> configuration) {
    String raw = configuration.getOrDefault("delta.checkpointInterval", "10");
    try {
      long v = Long.parseLong(raw.trim());
      return v > 0 ? v : 10;
    } catch (NumberFormatException e) {
      return 10;
    }
  }

  private void cleanUpWrittenFiles() {
    try {
      log.store().deleteAll(writtenKeys);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete uncommitted data files of {}: {}", log.tablePath(), e.toString());
    }
  }

  /** Operation metrics as Delta writes them: decimal strings. */
  public static Map<String, String> metrics(Object... keyValues) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      out.put(String.valueOf(keyValues[i]), String.valueOf(keyValues[i + 1]));
    }
    return out;
  }
}
