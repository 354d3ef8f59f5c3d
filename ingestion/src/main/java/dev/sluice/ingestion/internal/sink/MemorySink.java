package dev.sluice.ingestion.internal.sink;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Keeps batches in memory (tests, notebooks): append mode accumulates, complete mode keeps the last
 * batch. A batch id seen before replaces its earlier rows, so re-runs don't duplicate.
 */
public final class MemorySink implements Sink {
  private final String name;
  private final OutputMode mode;
  private final TreeMap<Long, List<Row>> batches = new TreeMap<>();

  public MemorySink(String name, OutputMode mode) {
    this.name = name;
    this.mode = mode;
  }

  @Override
  public synchronized long addBatch(long batchId, Batch batch) {
    if (mode == OutputMode.COMPLETE) {
      batches.clear();
    }
    batches.put(batchId, new ArrayList<>(batch.rows()));
    return batch.size();
  }

  /** All rows written so far, in batch order. */
  public synchronized List<Row> rows() {
    List<Row> out = new ArrayList<>();
    batches.values().forEach(out::addAll);
    return out;
  }

  public String name() {
    return name;
  }

  @Override
  public String description() {
    return "MemorySink[" + name + "]";
  }
}
