package dev.sluice.table;

import dev.sluice.table.exceptions.TableAlreadyExistsException;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.write.DeletionVectorUpdate;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Creates a table (version 0): schema, partition columns, properties. Tables are created at reader 1 /
 * writer 2, which every Delta engine reads; with the change data feed on, at writer 7 with the features
 * {@code changeDataFeed}, {@code appendOnly} and {@code invariants}, as delta-spark does.
 */
public final class CreateTable {
  private final TableContext context;
  private final StructType schema;
  private final List<String> partitionColumns = new ArrayList<>();
  private final Map<String, String> properties = new LinkedHashMap<>();
  private boolean ifNotExists;
  private String name;
  private String description;

  CreateTable(TableContext context, StructType schema) {
    this.context = context;
    this.schema = schema;
  }

  public CreateTable partitionBy(String... columns) {
    for (String c : columns) {
      if (schema.indexOf(c) < 0) {
        throw new IllegalArgumentException("Partition column '" + c + "' is not in the schema; columns are " + schema.fieldNames());
      }
      partitionColumns.add(schema.field(schema.indexOf(c)).name());
    }
    return this;
  }

  /**
   * Columns a plain {@link Table#optimize()} clusters the rows by (the first major): property
   * {@code sluice.clusteringColumns}. A keyed table clustered by its merge key keeps the files a MERGE touches few.
   */
  public CreateTable clusterBy(String... columns) {
    return property(dev.sluice.table.internal.maintenance.RowOrdering.CLUSTERING_COLUMNS_PROPERTY,
        String.join(",", columns));
  }

  /** A table property ({@code metaData.configuration}), e.g. {@code delta.appendOnly=true}. */
  public CreateTable property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  /** Turns the change data feed on ({@code delta.enableChangeDataFeed=true}). */
  public CreateTable enableChangeDataFeed() {
    return property("delta.enableChangeDataFeed", "true");
  }

  /** Do nothing (and return the current version) when the table already exists. */
  public CreateTable ifNotExists() {
    this.ifNotExists = true;
    return this;
  }

  public CreateTable name(String value) {
    this.name = value;
    return this;
  }

  public CreateTable description(String value) {
    this.description = value;
    return this;
  }

  /**
   * @throws TableAlreadyExistsException when a table exists at the path (unless {@link #ifNotExists()})
   * @throws dev.sluice.table.exceptions.ProtocolChangedException when another writer created it concurrently
   */
  public CommitResult commit() {
    if (context.log().exists()) {
      if (ifNotExists) {
        return CommitResult.skipped(context.log().latestVersion().orElse(0));
      }
      throw new TableAlreadyExistsException("A table already exists at " + context.log().store().uriOf(context.log().tablePath())
          + "; use ifNotExists() to keep it, or write to it instead.");
    }
    Metadata metadata = new Metadata(UUID.randomUUID().toString(), name, description, "parquet", Map.of(),
        schema.toJson(), partitionColumns, properties, context.clock().millis());
    OptimisticTransaction txn = context.newTransaction(null);
    txn.updateProtocol(protocolFor(properties));
    txn.updateMetadata(metadata);
    Map<String, String> params = new LinkedHashMap<>();
    params.put("partitionBy", Json.stringList(partitionColumns));
    params.put("properties", Json.stringMap(properties));
    long version = txn.commit("CREATE TABLE", params, Map.of());
    return new CommitResult(version, false, Map.of());
  }

  /**
   * The lowest protocol the properties need: (1, 2); (1, 7) with {@code changeDataFeed}; (3, 7) with the
   * {@code deletionVectors} reader and writer feature when {@code delta.enableDeletionVectors=true}.
   */
  static Protocol protocolFor(Map<String, String> properties) {
    boolean cdf = "true".equalsIgnoreCase(properties.get("delta.enableChangeDataFeed"));
    boolean dvs = "true".equalsIgnoreCase(properties.get(DeletionVectorUpdate.PROPERTY));
    if (dvs) {
      List<String> writer = cdf ? List.of("deletionVectors", "changeDataFeed", "appendOnly", "invariants")
          : List.of("deletionVectors", "appendOnly", "invariants");
      return new Protocol(3, 7, List.of("deletionVectors"), writer);
    }
    return cdf ? new Protocol(1, 7, null, List.of("changeDataFeed", "appendOnly", "invariants")) : Protocol.of(1, 2);
  }
}
