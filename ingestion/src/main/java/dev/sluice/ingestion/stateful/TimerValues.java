package dev.sluice.ingestion.stateful;

/** The clocks of the batch a {@link StatefulProcessor} call runs in (Spark's {@code TimerValues}). */
public interface TimerValues {
  /** The batch's processing time (epoch ms). */
  long getCurrentProcessingTimeInMs();

  /** The watermark in force for the batch (epoch ms; 0 before any event, or without a watermark). */
  long getCurrentWatermarkInMs();
}
