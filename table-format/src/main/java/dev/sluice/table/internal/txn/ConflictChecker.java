package dev.sluice.table.internal.txn;

import dev.sluice.table.exceptions.ConcurrentAppendException;
import dev.sluice.table.exceptions.ConcurrentDeleteDeleteException;
import dev.sluice.table.exceptions.ConcurrentDeleteReadException;
import dev.sluice.table.exceptions.ConcurrentTransactionException;
import dev.sluice.table.exceptions.MetadataChangedException;
import dev.sluice.table.exceptions.ProtocolChangedException;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.actions.SetTransaction;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Decides whether a transaction may still commit after another writer won a version, with Delta's
 * rules in Delta's order (Spark {@code ConflictChecker}, isolation level Serializable):
 *
 * <ol>
 *   <li>the winner changed the protocol (or created the table) → {@link ProtocolChangedException};
 *   <li>the winner changed the metadata → {@link MetadataChangedException};
 *   <li>the winner carries a {@code txn} for an application id we depend on → {@link ConcurrentTransactionException};
 *   <li>the winner added data files that match what we read → {@link ConcurrentAppendException};
 *   <li>the winner removed a data file we read → {@link ConcurrentDeleteReadException};
 *   <li>the winner removed a data file we remove too → {@link ConcurrentDeleteDeleteException}.
 * </ol>
 *
 * A blind append (a transaction that read no data) passes rules 4–6 by definition. Files whose
 * actions have {@code dataChange=false} (compaction) never conflict with our reads, as in Delta.
 */
final class ConflictChecker {
  private final ReadSet reads;
  private final Set<String> ourRemoves;
  private final Predicate<AddFile> matchesOurReads;
  private final Function<String, String> canonicalize;
  private final String tableName;

  /**
   * @param matchesOurReads whether a file added by the winner may hold rows our read predicates select
   * @param canonicalize maps a log path to the key used for file identity (relative and absolute forms match)
   */
  ConflictChecker(
      ReadSet reads,
      Set<String> ourRemoves,
      Predicate<AddFile> matchesOurReads,
      Function<String, String> canonicalize,
      String tableName) {
    this.reads = reads;
    this.ourRemoves = ourRemoves;
    this.matchesOurReads = matchesOurReads;
    this.canonicalize = canonicalize;
    this.tableName = tableName;
  }

  /** Throws the first conflict between our transaction and the winning commit {@code version}. */
  void check(long version, List<Action> winner) {
    String who = describe(version, winner);
    for (Action a : winner) {
      if (a instanceof Protocol) {
        throw new ProtocolChangedException(who + " changed the protocol of " + tableName
            + (version == 0 ? " (it created the table first)" : "")
            + ". Re-read the table and retry; check that Sluice still supports its protocol.");
      }
    }
    for (Action a : winner) {
      if (a instanceof Metadata) {
        throw new MetadataChangedException(who + " changed the metadata (schema, partitioning or properties) of "
            + tableName + ". Re-read the table and retry the write against the new metadata.");
      }
    }
    for (Action a : winner) {
      if (a instanceof SetTransaction txn && reads.appIds().contains(txn.appId())) {
        throw new ConcurrentTransactionException(who + " committed txn(appId=" + txn.appId() + ", version="
            + txn.version() + ") to " + tableName + ", an application this transaction also writes for. Two"
            + " instances of the same query or writer are running; stop one of them.");
      }
    }
    if (reads.readsNoData() && ourRemoves.isEmpty()) {
      return;
    }
    for (Action a : winner) {
      if (a instanceof AddFile add && add.dataChange() && (reads.readWholeTable() || matchesOurReads.test(add))) {
        throw new ConcurrentAppendException(who + " added " + add.path() + " to " + tableName + ", which matches what"
            + " this transaction read (" + readDescription() + "). Retry the operation from a fresh snapshot;"
            + " narrowing its condition to the partitions it touches avoids such conflicts.");
      }
    }
    for (Action a : winner) {
      if (a instanceof RemoveFile remove && remove.dataChange()) {
        String path = canonicalize.apply(remove.path());
        if (reads.readWholeTable() || reads.files().contains(path)) {
          throw new ConcurrentDeleteReadException(who + " removed " + remove.path() + " from " + tableName
              + ", a file this transaction read. Retry the operation from a fresh snapshot.");
        }
      }
    }
    for (Action a : winner) {
      if (a instanceof RemoveFile remove && ourRemoves.contains(canonicalize.apply(remove.path()))) {
        throw new ConcurrentDeleteDeleteException(who + " removed " + remove.path() + " from " + tableName
            + ", a file this transaction removes too. Retry the operation from a fresh snapshot.");
      }
    }
  }

  private String readDescription() {
    if (reads.readWholeTable()) {
      return "the whole table";
    }
    return reads.predicates().isEmpty() ? "files " + reads.files() : "rows where " + reads.predicates();
  }

  private static String describe(long version, List<Action> winner) {
    for (Action a : winner) {
      if (a instanceof CommitInfo ci && ci.operation() != null) {
        return "A concurrent " + ci.operation() + " (version " + version + ")";
      }
    }
    return "A concurrent commit (version " + version + ")";
  }
}
