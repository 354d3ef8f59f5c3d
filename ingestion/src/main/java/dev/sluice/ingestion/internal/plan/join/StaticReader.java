package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.source.internal.files.StaticFiles;
import dev.sluice.table.Scan;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads the rows of a static side with the columns it had when the join was bound. */
final class StaticReader {
  /** The rows of one read, and the Delta version they came from (-1 for files). */
  record Read(List<Row> rows, long version) {}

  private final StaticSide side;
  private final StructType schema;

  private StaticReader(StaticSide side, StructType schema) {
    this.side = side;
    this.schema = schema;
  }

  /**
   * @throws IllegalArgumentException when the table or the files do not exist, or the files' schema is unknown
   */
  static StaticReader open(StaticSide side) {
    return new StaticReader(side, schemaOf(side));
  }

  private static StructType schemaOf(StaticSide side) {
    if (side instanceof StaticSide.DeltaTable d) {
      if (!d.table().exists()) {
        throw new IllegalArgumentException("The static side of the join, " + side.describe() + ", is not a Delta"
            + " table (it has no commits): create the table first, or fix its path");
      }
      return d.table().latestSnapshot().schema();
    }
    StaticSide.Files f = (StaticSide.Files) side;
    StaticFiles.validate(f.format(), f.options());
    StaticFiles.checkExists(f.location(), side.describe());
    if (f.schema() != null) {
      return f.schema();
    }
    if (!f.format().equals("parquet")) {
      throw new IllegalArgumentException("The static side of the join, " + side.describe() + ", needs a schema:"
          + " declare the schema of the " + f.format() + " files");
    }
    return StaticFiles.parquetSchema(f.location());
  }

  StructType schema() {
    return schema;
  }

  /** The newest version of a Delta side (a cheap log listing), or empty for files. */
  Optional<Long> latestVersion() {
    if (side instanceof StaticSide.DeltaTable d) {
      return Optional.of(d.table().latestVersion().orElse(-1));
    }
    return Optional.empty();
  }

  Read read() {
    if (side instanceof StaticSide.DeltaTable d) {
      return readDelta(d.table());
    }
    StaticSide.Files f = (StaticSide.Files) side;
    return new Read(StaticFiles.read(f.location(), f.format(), schema, f.options()), -1);
  }

  private Read readDelta(Table table) {
    Snapshot snapshot = table.latestSnapshot();
    for (StructField field : schema.fields()) {
      Optional<StructField> now = snapshot.schema().field(field.name());
      if (now.isEmpty() || !now.get().type().equals(field.type())) {
        throw new IllegalStateException("The static side of the join, " + side.describe() + ", changed its column '"
            + field.name() + "' at version " + snapshot.version() + " (was " + field.type().typeName() + ", now "
            + now.map(c -> c.type().typeName()).orElse("dropped") + "): restart the query so that the join binds to"
            + " the table's new schema");
      }
    }
    Scan scan = snapshot.scan().select(schema.fieldNames()).build();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = scan.rows()) {
      it.forEachRemaining(rows::add);
    }
    return new Read(rows, snapshot.version());
  }
}
