package dev.sluice.ingestion.state;

import java.util.Objects;

/**
 * What a checkpoint records about one stateful operator (in {@code state/<operatorId>/_metadata}, as Spark's
 * operator metadata): its name, the provider that wrote its state (a restart must use the same one), the
 * number of partitions, and the key and value schemas, so that the state reader can decode it.
 */
public record StateOperatorMetadata(int operatorId, String operatorName, StateStoreType provider, int numPartitions,
    StateSchema schema) {
  public StateOperatorMetadata {
    Objects.requireNonNull(operatorName, "operatorName");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(schema, "schema");
  }
}
