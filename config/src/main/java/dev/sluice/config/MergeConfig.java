package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a silver sink MERGEs rows by key: the newest {@code sequenceBy} wins, {@code deleteWhen} rows delete
 * their key, {@code scd} is 1 (overwrite) or 2 (keep history).
 */
public record MergeConfig(List<String> keys, Optional<String> sequenceBy, Optional<String> deleteWhen, int scd) {
  public MergeConfig {
    keys = List.copyOf(keys);
    Objects.requireNonNull(sequenceBy, "sequenceBy");
    Objects.requireNonNull(deleteWhen, "deleteWhen");
    if (scd != 1 && scd != 2) {
      throw new IllegalArgumentException("scd must be 1 or 2, got " + scd);
    }
  }
}
