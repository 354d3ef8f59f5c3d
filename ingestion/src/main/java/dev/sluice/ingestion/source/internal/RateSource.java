package dev.sluice.ingestion.source.internal;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Generates rows {@code (timestamp, value)} for tests and demos. Offset {@code {"value":N}} means
 * values 0..N-1 exist. With {@code rowsPerSecond}, value v appears at start + v/rowsPerSecond
 * seconds (real time; the start is stored in the checkpoint so a restart continues the same
 * sequence). With {@code rowsPerBatch}, each batch adds exactly that many rows and batch b's rows
 * carry timestamp {@code startTimestamp + b * advanceMillisPerBatch}, so re-runs are identical.
 */
final class RateSource implements Source {
  static final String FIELD = "value";
  static final StructType SCHEMA = StructType.empty()
      .add("timestamp", PrimitiveType.TIMESTAMP)
      .add("value", PrimitiveType.LONG);

  private final long rowsPerSecond;
  private final long rowsPerBatch;
  private final long startMillis;
  private final long advanceMillisPerBatch;
  private final Clock clock;
  private boolean availableNow;
  private long availableNowEnd = -1;

  /** Exactly one of {@code rowsPerSecond} and {@code rowsPerBatch} is positive. */
  RateSource(long rowsPerSecond, long rowsPerBatch, long startMillis, long advanceMillisPerBatch, Clock clock) {
    this.rowsPerSecond = rowsPerSecond;
    this.rowsPerBatch = rowsPerBatch;
    this.startMillis = startMillis;
    this.advanceMillisPerBatch = advanceMillisPerBatch;
    this.clock = clock;
  }

  /** The start time of a real-time source: read from the checkpoint, or now (stored for restarts). */
  static long startMillis(Location metadata, Clock clock) {
    String key = metadata.resolve("start").key();
    try {
      metadata.store().create(key, Long.toString(clock.millis()).getBytes(StandardCharsets.UTF_8));
    } catch (ObjectAlreadyExistsException e) {
      // started before: keep the first start so values keep their timestamps
    }
    return Long.parseLong(new String(metadata.store().read(key), StandardCharsets.UTF_8).trim());
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  public Optional<SourceOffset> latestOffset(Optional<SourceOffset> start, ReadLimit limit) {
    long from = OffsetJson.value(start, FIELD, 0);
    long end = rowsPerBatch > 0 ? from + rowsPerBatch : Math.max(from, (clock.millis() - startMillis) * rowsPerSecond / 1000);
    if (availableNow) {
      availableNowEnd = Math.max(from, end);
      availableNow = false;
    }
    if (availableNowEnd >= 0) {
      end = Math.min(end, availableNowEnd);
    }
    end = Math.min(end, limit.maxRecords() == Long.MAX_VALUE ? end : from + limit.maxRecords());
    return end > from ? Optional.of(OffsetJson.of(FIELD, end)) : Optional.empty();
  }

  @Override
  public void prepareForAvailableNow() {
    availableNow = true; // the end is fixed by the next latestOffset, which knows where the query stands
  }

  @Override
  public Batch getBatch(Optional<SourceOffset> start, SourceOffset end) {
    long from = OffsetJson.value(start, FIELD, 0);
    long to = OffsetJson.value(end, FIELD);
    List<Row> rows = new ArrayList<>();
    for (long v = from; v < to; v++) {
      rows.add(Row.of(timestamp(v), v));
    }
    return new Batch(SCHEMA, rows);
  }

  private Instant timestamp(long value) {
    if (rowsPerBatch > 0) {
      return Instant.ofEpochMilli(startMillis + (value / rowsPerBatch) * advanceMillisPerBatch);
    }
    return Instant.ofEpochMilli(startMillis + value * 1000 / rowsPerSecond);
  }

  @Override
  public String description() {
    return rowsPerBatch > 0 ? "RateSource[rowsPerBatch=" + rowsPerBatch + "]" : "RateSource[rowsPerSecond=" + rowsPerSecond + "]";
  }
}
