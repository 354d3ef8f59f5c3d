package dev.sluice.table.internal.log;

import dev.sluice.table.internal.actions.CommitInfo;

/**
 * One commit in a table's history.
 *
 * @param version the commit's version
 * @param timestamp its commit time (epoch ms), as time travel by timestamp uses it
 * @param commitInfo its provenance, or null if the commit has none
 */
public record HistoryEntry(long version, long timestamp, CommitInfo commitInfo) {}
