package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Deduplication of a silver stream by key; with a watermark, keys are forgotten once past it. */
public record DedupConfig(List<String> keys, Optional<WatermarkConfig> watermark) {
  public DedupConfig {
    keys = List.copyOf(keys);
    Objects.requireNonNull(watermark, "watermark");
  }
}
