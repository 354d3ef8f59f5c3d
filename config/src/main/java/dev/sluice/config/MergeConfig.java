package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a silver sink MERGEs rows by key: the newest {@code sequenceBy} wins, {@code deleteWhen} rows delete
 * their key, {@code scd} is 1 (overwrite) or 2 (keep history). A delete leaves a tombstone (the key and the
 * delete's sequence value) for {@code tombstoneRetention} of processing time, so that an older version arriving
 * later does not bring the key back.
 */
public record MergeConfig(List<String> keys, Optional<String> sequenceBy, Optional<String> deleteWhen, int scd,
    Interval tombstoneRetention) {
  /** How long tombstones are kept when the config does not say: 2 days, as Databricks' AUTO CDC. */
  public static final Interval DEFAULT_TOMBSTONE_RETENTION = new Interval("2 days", Duration.ofDays(2));

  public MergeConfig {
    keys = List.copyOf(keys);
    Objects.requireNonNull(sequenceBy, "sequenceBy");
    Objects.requireNonNull(deleteWhen, "deleteWhen");
    Objects.requireNonNull(tombstoneRetention, "tombstoneRetention");
    if (scd != 1 && scd != 2) {
      throw new IllegalArgumentException("scd must be 1 or 2, got " + scd);
    }
  }

  /** With the default tombstone retention. */
  public MergeConfig(List<String> keys, Optional<String> sequenceBy, Optional<String> deleteWhen, int scd) {
    this(keys, sequenceBy, deleteWhen, scd, DEFAULT_TOMBSTONE_RETENTION);
  }
}
