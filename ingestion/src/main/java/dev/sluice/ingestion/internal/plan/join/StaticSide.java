package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.Location;
import dev.sluice.table.Table;
import dev.sluice.table.types.StructType;
import java.util.Map;

/** The static (right) side of a stream-static join: a Delta table or a set of data files. */
public sealed interface StaticSide permits StaticSide.DeltaTable, StaticSide.Files {
  /** The prefix of static columns whose names clash with stream columns ({@code <name>_<column>}). */
  String name();

  /** The side as errors and plans name it, e.g. {@code delta table file:/w/silver/customers/}. */
  String describe();

  /** {@link RefreshPolicy#EVERY_BATCH} for Delta tables, {@link RefreshPolicy#NEVER} for files. */
  RefreshPolicy defaultRefresh();

  /** A Delta table, named after the last segment of its path. */
  static DeltaTable delta(Table table) {
    return new DeltaTable(table, lastSegment(table.uri().getPath()));
  }

  /**
   * Files of {@code format} ({@code json}, {@code csv}, {@code parquet}) at a folder or file, named after
   * its last segment; {@code schema} may be null for Parquet (read from the first file's footer).
   */
  static Files files(Location location, String format, StructType schema) {
    return new Files(location, format, schema, Map.of(), lastSegment(location.key()));
  }

  private static String lastSegment(String path) {
    String p = path == null ? "" : path.replaceAll("/+$", "");
    String last = p.substring(p.lastIndexOf('/') + 1);
    int dot = last.indexOf('.');
    last = dot > 0 ? last.substring(0, dot) : last;
    return last.isEmpty() ? "static" : last;
  }

  /** A Delta table read through its snapshots. */
  record DeltaTable(Table table, String name) implements StaticSide {
    @Override
    public String describe() {
      return "delta table " + table.uri();
    }

    @Override
    public RefreshPolicy defaultRefresh() {
      return RefreshPolicy.EVERY_BATCH;
    }
  }

  /**
   * Data files read with the files source's parsers.
   *
   * @param options the CSV dialect ({@code header}, {@code delimiter}, …), empty otherwise
   */
  record Files(Location location, String format, StructType schema, Map<String, String> options, String name)
      implements StaticSide {
    public Files {
      options = Map.copyOf(options);
    }

    @Override
    public String describe() {
      return format + " files at " + location;
    }

    @Override
    public RefreshPolicy defaultRefresh() {
      return RefreshPolicy.NEVER;
    }
  }
}
