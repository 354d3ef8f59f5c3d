package dev.sluice.ingestion.state.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingestion.CheckpointIncompatibleException;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateOperatorMetadata;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Reads and writes {@code <checkpoint>/state/<operatorId>/_metadata}, one JSON object
 * ({@code {"version":1,"operatorId":0,"operatorName":"dedupeWithinWatermark","provider":"rocksdb",
 * "numPartitions":1,"keySchema":<schemaString>,"valueSchema":<schemaString>}}), and refuses a provider that is
 * not the one that wrote the state.
 */
public final class StateMetadataFile {
  static final String NAME = "_metadata";
  private static final ObjectMapper JSON = new ObjectMapper();

  private StateMetadataFile() {}

  /** The metadata of the operator folder {@code operatorRoot}, if it has been written. */
  public static Optional<StateOperatorMetadata> read(Location operatorRoot) {
    Location file = operatorRoot.resolve(NAME);
    byte[] bytes;
    try {
      bytes = file.store().read(file.key());
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
    try {
      JsonNode n = JSON.readTree(bytes);
      return Optional.of(new StateOperatorMetadata(n.path("operatorId").asInt(), n.path("operatorName").asText(),
          StateStoreType.of(n.path("provider").asText(), file.toString()), n.path("numPartitions").asInt(1),
          new StateSchema(StructType.fromJson(n.path("keySchema").asText()),
              StructType.fromJson(n.path("valueSchema").asText()))));
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("The state operator metadata " + file + " can't be read: " + e.getMessage()
          + ". It was damaged or not written by Sluice; restore the checkpoint from a backup, or start the query "
          + "with a new checkpoint", e);
    }
  }

  /**
   * Checks that the operator's state was written by {@code metadata.provider()} (the metadata file, or for a
   * checkpoint from before it existed, the names of the state files), then writes the metadata.
   *
   * @throws CheckpointIncompatibleException when another provider wrote the state
   */
  public static void checkAndWrite(Location operatorRoot, StateOperatorMetadata metadata, String checkpoint) {
    Optional<StateStoreType> writtenBy = read(operatorRoot).map(StateOperatorMetadata::provider)
        .or(() -> providerOfFiles(operatorRoot.resolve("0")));
    if (writtenBy.isPresent() && writtenBy.get() != metadata.provider()) {
      StateStoreType before = writtenBy.get();
      throw new CheckpointIncompatibleException("The checkpoint " + checkpoint + " keeps the state of operator "
          + metadata.operatorId() + " (" + metadata.operatorName() + ") in the " + before + " state store, but the "
          + "query asks for " + metadata.provider() + ": one provider can't read the other's files. Nothing was "
          + "read or written. Run the query with option stateStore=" + before + " (YAML: state_store: "
          + before + "), or start it with a new checkpointLocation (it then reprocesses its sources from the "
          + "start; for a Delta sink, give it a new table or truncate it first).",
          List.of("changed stateStore: " + before + " → " + metadata.provider()));
    }
    ObjectNode n = JSON.createObjectNode();
    n.put("version", 1);
    n.put("operatorId", metadata.operatorId());
    n.put("operatorName", metadata.operatorName());
    n.put("provider", metadata.provider().optionName());
    n.put("numPartitions", metadata.numPartitions());
    n.put("keySchema", metadata.schema().keySchema().toJson());
    n.put("valueSchema", metadata.schema().valueSchema().toJson());
    Location file = operatorRoot.resolve(NAME);
    file.store().overwrite(file.key(), n.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** The provider whose file names the partition folder holds, for checkpoints written before {@code _metadata}. */
  static Optional<StateStoreType> providerOfFiles(Location partition) {
    String prefix = partition.key().isEmpty() ? "" : partition.key() + "/";
    try (CloseableIterator<ObjectStatus> it = partition.store().list(prefix)) {
      while (it.hasNext()) {
        String name = it.next().key().substring(prefix.length());
        if (name.endsWith(StateFileNames.DELTA) || name.endsWith(StateFileNames.SNAPSHOT)) {
          return Optional.of(StateStoreType.IN_MEMORY);
        }
        if (name.endsWith(RocksDbFileNames.CHANGELOG) || name.endsWith(RocksDbFileNames.ZIP)) {
          return Optional.of(StateStoreType.ROCKSDB);
        }
      }
    }
    return Optional.empty();
  }
}
