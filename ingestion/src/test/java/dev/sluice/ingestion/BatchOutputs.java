package dev.sluice.ingestion;

import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A foreachBatch sink keeping each batch's rows by id (a re-run batch replaces itself), across query runs. */
final class BatchOutputs implements BatchFunction {
  private final Map<Long, List<Row>> batches = new TreeMap<>();

  @Override
  public synchronized void call(Batch batch, long batchId) {
    batches.put(batchId, new ArrayList<>(batch.rows()));
  }

  synchronized int batchCount() {
    return batches.size();
  }

  synchronized List<Row> batch(long id) {
    return batches.getOrDefault(id, List.of());
  }

  synchronized List<Row> all() {
    List<Row> out = new ArrayList<>();
    batches.values().forEach(out::addAll);
    return out;
  }
}
