package dev.sluice.table.internal.txn;

import dev.sluice.table.expressions.Predicate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a transaction read from its snapshot, for Delta's conflict rules: the predicates it
 * scanned with (a winner's new files matching one of them should have been read), the files it
 * read (a winner removing one of them invalidates the read), the application ids whose {@code txn}
 * version it relied on. A transaction that read nothing is a blind append.
 */
final class ReadSet {
  private final List<Predicate> predicates = new ArrayList<>();
  private final Set<String> files = new LinkedHashSet<>();
  private final Set<String> appIds = new LinkedHashSet<>();
  private boolean wholeTable;

  void predicate(Predicate p) {
    predicates.add(p);
  }

  void wholeTable() {
    wholeTable = true;
  }

  void file(String canonicalPath) {
    files.add(canonicalPath);
  }

  void appId(String appId) {
    appIds.add(appId);
  }

  List<Predicate> predicates() {
    return predicates;
  }

  Set<String> files() {
    return files;
  }

  Set<String> appIds() {
    return appIds;
  }

  boolean readWholeTable() {
    return wholeTable;
  }

  /** True when nothing of the table's data was read (application ids don't count: they are checked separately). */
  boolean readsNoData() {
    return !wholeTable && predicates.isEmpty() && files.isEmpty();
  }
}
