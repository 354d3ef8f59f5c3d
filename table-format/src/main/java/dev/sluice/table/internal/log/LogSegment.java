package dev.sluice.table.internal.log;

import dev.sluice.table.storage.ObjectStatus;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The files that make one version of a table: a complete checkpoint (all its parts; none if replay
 * starts at version 0) plus the contiguous commit files after it up to {@code version}, ascending.
 *
 * @param logPath the key of the table's {@code _delta_log}
 * @param version the version this segment reconstructs
 * @param checkpoint the parts of the checkpoint replay starts from, in part order; empty if none
 * @param deltas the commit files after the checkpoint (or from version 0), ascending and contiguous
 * @param lastCommitTimestamp the monotonised modification time of {@code version}'s commit file (epoch ms)
 */
public record LogSegment(
    String logPath, long version, List<ObjectStatus> checkpoint, List<ObjectStatus> deltas, long lastCommitTimestamp) {
  public LogSegment {
    Objects.requireNonNull(logPath, "logPath");
    checkpoint = List.copyOf(checkpoint);
    deltas = List.copyOf(deltas);
  }

  /** The version of the checkpoint replay starts from, empty when replay starts at version 0. */
  public OptionalLong checkpointVersion() {
    return checkpoint.isEmpty() ? OptionalLong.empty() : OptionalLong.of(FileNames.versionOf(checkpoint.get(0).key()));
  }

  /** Every file replay reads, checkpoint parts first; for error messages. */
  public List<String> fileNames() {
    return java.util.stream.Stream.concat(checkpoint.stream(), deltas.stream()).map(ObjectStatus::name).toList();
  }
}
