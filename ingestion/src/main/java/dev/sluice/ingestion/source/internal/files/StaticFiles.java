package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.internal.sink.files.FileSinkLog;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.internal.SourceOptions;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads every data file of a folder (or one file) at once with the files source's parsers, for the static
 * side of a stream-static join. Unlike the source, a malformed record fails the read: a dimension row
 * silently turned to nulls would join wrongly.
 */
public final class StaticFiles {
  /** The formats {@link #read} understands. */
  public static final Set<String> FORMATS = FileSourceOptions.FORMATS;
  /** The options {@link #read} accepts (lower case): the CSV dialect. */
  public static final Set<String> OPTIONS = Set.of("header", "delimiter", "sep", "quote", "escape", "nullvalue");

  private StaticFiles() {}

  /**
   * The schema of the first Parquet file at {@code location}, read from its footer.
   *
   * @throws IllegalArgumentException when there is no data file, or nothing at {@code location}
   */
  public static StructType parquetSchema(Location location) {
    List<ObjectStatus> files = files(location);
    if (files.isEmpty()) {
      throw new IllegalArgumentException("No data file at " + location + " to read the Parquet schema from: add the"
          + " files, or declare the schema");
    }
    return ParquetSchemas.read(location.store(), files.get(0).key(), files.get(0).size());
  }

  /**
   * The rows of every data file at {@code location} (a file, or a folder whose files and sub-folders not
   * starting with '_' or '.' are read), in key order, with {@code schema}'s columns.
   *
   * @throws IllegalArgumentException for an unknown format or option, or nothing at {@code location}
   * @throws IllegalStateException naming the file and line of a malformed record
   */
  public static List<Row> read(Location location, String format, StructType schema, Map<String, String> options) {
    FileSourceOptions parsed = check(format, options);
    List<Row> out = new ArrayList<>();
    boolean sinkLog = sinkLogFiles(location).isPresent();
    for (ObjectStatus f : files(location)) {
      // A file sink leaves partition columns out of the files: their values are in the folder names.
      Map<Integer, Object> partitions = sinkLog ? partitionValues(location, f, schema) : Map.of();
      StructType fileSchema = StructType.empty();
      for (int i = 0; i < schema.size(); i++) {
        if (!partitions.containsKey(i)) {
          fileSchema = fileSchema.add(schema.field(i));
        }
      }
      for (Row r : readFile(location, f, format, fileSchema, parsed)) {
        if (partitions.isEmpty()) {
          out.add(r);
          continue;
        }
        Object[] values = new Object[schema.size()];
        for (int i = 0, j = 0; i < values.length; i++) {
          values[i] = partitions.containsKey(i) ? partitions.get(i) : r.get(j++);
        }
        out.add(Row.of(values));
      }
    }
    return out;
  }

  private static List<Row> readFile(Location location, ObjectStatus f, String format, StructType schema,
      FileSourceOptions parsed) {
    String uri = location.store().uriOf(f.key()).toString();
    RowLayout layout = new RowLayout(schema, false);
    FileSourceMetrics unused = new FileSourceMetrics(); // every malformed record fails the read instead
    List<Row> rows = new ArrayList<>();
    switch (format) {
      case "json" -> new TextFileReader(new JsonLineParser(schema), layout, false, false, unused)
          .read(text(location, f, uri), uri, rows);
      case "csv" -> new TextFileReader(new CsvLineParser(schema, parsed.csv()), layout, false, parsed.csv().header(),
          unused).read(text(location, f, uri), uri, rows);
      default -> {
        try (CloseableIterator<Row> it = ParquetDataReader.read(location.store(), f.key(), f.size(), schema)) {
          it.forEachRemaining(r -> rows.add(layout.row(r.toArray(), uri, null, null)));
        }
      }
    }
    List<Row> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      out.add(dataOf(r, schema.size(), uri));
    }
    return out;
  }

  private static byte[] text(Location location, ObjectStatus f, String uri) {
    return Compression.decode(f.key(), uri, location.store().read(f.key()));
  }

  /**
   * Checks that {@code location} is a file or a folder, without reading its data.
   *
   * @throws IllegalArgumentException naming the path when nothing is there
   */
  public static void checkExists(Location location, String what) {
    files(location, what);
  }

  /**
   * Checks a format and its options without reading anything.
   *
   * @throws IllegalArgumentException for an unknown format or option, or a bad option value
   */
  public static void validate(String format, Map<String, String> options) {
    check(format, options);
  }

  private static FileSourceOptions check(String format, Map<String, String> options) {
    if (!FORMATS.contains(format)) {
      throw new IllegalArgumentException("Unknown static file format '" + format + "': known formats are "
          + new java.util.TreeSet<>(FORMATS) + "; fix the format name");
    }
    SourceContext context = new SourceContext(options, Optional.empty(), Optional.empty(), null, null, null);
    return FileSourceOptions.parse(format, SourceOptions.check(format, context, OPTIONS));
  }

  private static Row dataOf(Row layoutRow, int width, String uri) {
    Object error = layoutRow.get(width + 1);
    if (error != null) {
      throw new IllegalStateException("Malformed record in static file " + uri + ", " + error + ": fix or remove the"
          + " record, or fix the declared schema");
    }
    return Row.of(Arrays.copyOf(layoutRow.toArray(), width));
  }

  private static List<ObjectStatus> files(Location location) {
    return files(location, "files at " + location);
  }

  /** The data files; an existing empty local folder has none, but a path with nothing at all is refused. */
  private static List<ObjectStatus> files(Location location, String what) {
    Optional<ObjectStatus> single = location.key().isEmpty() ? Optional.empty() : location.store().status(location.key());
    if (single.isPresent()) {
      return List.of(single.get());
    }
    Optional<List<ObjectStatus>> logged = sinkLogFiles(location);
    if (logged.isPresent()) {
      return logged.get();
    }
    String prefix = location.key().isEmpty() ? "" : location.key() + "/";
    List<ObjectStatus> out = new ArrayList<>();
    boolean any = false;
    try (CloseableIterator<ObjectStatus> it = location.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        any = true;
        if (!FileSource.isHidden(s.key().substring(prefix.length()))) {
          out.add(s);
        }
      }
    }
    if (!any && !isLocalFolder(location)) {
      throw FileSourceErrors.missingStaticPath(what, location.toString());
    }
    return out;
  }

  /**
   * The files a file sink's log ({@code _spark_metadata}) names, when the folder has one: as Spark does, only
   * they are the folder's data, so files of a crashed attempt (not in the log) are not read.
   */
  private static Optional<List<ObjectStatus>> sinkLogFiles(Location location) {
    FileSinkLog log = new FileSinkLog(location.store(), location.key());
    if (!log.exists()) {
      return Optional.empty();
    }
    List<ObjectStatus> out = new ArrayList<>();
    for (FileSinkLog.Entry e : log.files()) {
      String key = log.keyOf(e).orElseThrow(() -> new IllegalStateException("The file sink log of " + location
          + " names " + e.path() + ", which is outside the store " + location.store().root() + ": the folder was"
          + " moved after it was written. Fix: read it where it was written, or delete " + FileSinkLog.DIR
          + " to read every file of the folder"));
      out.add(new ObjectStatus(key, e.size(), e.modificationTime()));
    }
    return Optional.of(out);
  }

  /** Schema columns filled from the {@code col=value} folders of a sink-written file, by ordinal (null values kept). */
  private static Map<Integer, Object> partitionValues(Location location, ObjectStatus f, StructType schema) {
    String prefix = location.key().isEmpty() ? "" : location.key() + "/";
    String relative = f.key().startsWith(prefix) ? f.key().substring(prefix.length()) : f.key();
    Map<Integer, Object> out = new java.util.HashMap<>();
    for (Map.Entry<String, String> e : FileSinkLog.partitionValues(relative).entrySet()) {
      int i = schema.indexOf(e.getKey());
      if (i >= 0) {
        try {
          out.put(i, e.getValue() == null ? null : TextValues.parse(e.getValue(), schema.field(i).type(), e.getKey()));
        } catch (TextValues.BadValue bad) {
          throw new IllegalStateException("The partition folder " + e.getKey() + "=" + e.getValue() + " of "
              + location.store().uriOf(f.key()) + " does not fit column " + e.getKey() + " "
              + schema.field(i).type().typeName() + ": " + bad.getMessage() + "; fix the declared schema", bad);
        }
      }
    }
    return out;
  }

  /** Object stores have no folders: there, a prefix without objects is as good as missing. */
  private static boolean isLocalFolder(Location location) {
    if (!(location.store() instanceof LocalObjectStore local)) {
      return false;
    }
    Path dir = location.key().isEmpty() ? Path.of(local.root()) : local.pathOf(location.key());
    return Files.isDirectory(dir);
  }
}
