package dev.sluice.table.internal.log;

import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.parquet.PageCodecs;
import dev.sluice.table.internal.parquet.StoreInputFile;
import dev.sluice.table.internal.parquet.StoreOutputFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Writes classic single-file (V1) checkpoints and reads single- and multi-part V1 checkpoints, in
 * Spark's checkpoint schema, through parquet-avro over the object store.
 */
public final class Checkpoints {
  private Checkpoints() {}

  /** What a checkpoint write produced; also what {@code _last_checkpoint} says. */
  public record Written(long version, String key, long actions, long sizeInBytes, long addFiles) {}

  /**
   * Writes {@code %020d.checkpoint.parquet} for the state's version (replacing an existing one, whose
   * content is the same), then overwrites {@code _last_checkpoint}. The state's version must be committed.
   *
   * @throws StorageException if the files cannot be written
   */
  public static Written write(ObjectStore store, String logPath, SnapshotState state) {
    String key = FileNames.checkpointFile(logPath, state.version());
    List<Action> actions = new ArrayList<>();
    actions.add(state.protocol());
    actions.add(state.metadata());
    actions.addAll(state.transactions().values());
    actions.addAll(state.activeFiles().values());
    actions.addAll(state.tombstones().values());
    try (ParquetWriter<GenericRecord> writer = AvroParquetWriter.<GenericRecord>builder(new StoreOutputFile(store, key))
        .withSchema(CheckpointSchema.CHECKPOINT)
        .withDataModel(GenericData.get())
        .withConf(configuration())
        .withCodecFactory(PageCodecs.INSTANCE)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .build()) {
      for (Action a : actions) {
        writer.write(CheckpointSchema.row(a));
      }
    } catch (IOException e) {
      throw new StorageException("Writing the checkpoint " + store.uriOf(key) + " failed: " + e.getMessage(), e);
    }
    long size = store.status(key).map(ObjectStatus::size)
        .orElseThrow(() -> new StorageException("The checkpoint " + store.uriOf(key) + " is missing right after it was"
            + " written; the object store does not show its own writes."));
    Written written = new Written(state.version(), key, actions.size(), size, state.activeFiles().size());
    store.overwrite(FileNames.lastCheckpointFile(logPath),
        LastCheckpoint.toJson(written.version(), written.actions(), written.sizeInBytes(), written.addFiles()));
    return written;
  }

  /**
   * The actions of one checkpoint file (or part), in file order; rows of unmodelled actions are skipped
   * and columns the file lacks read as null.
   *
   * @throws InvalidTableException naming the file if it is not a readable checkpoint
   */
  public static List<Action> read(ObjectStore store, ObjectStatus part) {
    List<Action> out = new ArrayList<>();
    // The builder taking a configuration: the one-argument builder reads its defaults from a Hadoop Configuration,
    // which parses core-default.xml (~60 ms of a short run's first checkpoint read, a Woodstox parser cold).
    try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
            new StoreInputFile(store, part.key(), part.size()), readConfiguration())
        .withDataModel(GenericData.get())
        .withCodecFactory(PageCodecs.INSTANCE)
        .build()) {
      GenericRecord row;
      while ((row = reader.read()) != null) {
        CheckpointSchema.toAction(row).ifPresent(out::add);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof StorageException se) {
        throw se;
      }
      throw new InvalidTableException("The checkpoint " + store.uriOf(part.key()) + " cannot be read: " + e
          + ". Delete it (and fix _last_checkpoint) to replay from the commit files, if they are still there.", e);
    }
    return out;
  }

  private static PlainParquetConfiguration configuration() {
    // Three-level lists are what Spark and Kernel write and expect.
    return new PlainParquetConfiguration(Map.of(AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, "false"));
  }

  private static PlainParquetConfiguration readConfiguration() {
    return new PlainParquetConfiguration(Map.of(
        AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, "false",
        AvroReadSupport.AVRO_COMPATIBILITY, "false",
        AvroReadSupport.AVRO_REQUESTED_PROJECTION, CheckpointSchema.CHECKPOINT.toString()));
  }
}
