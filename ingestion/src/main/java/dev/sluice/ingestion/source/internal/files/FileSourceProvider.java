package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceContext;
import dev.sluice.ingestion.source.SourceProvider;
import dev.sluice.ingestion.source.internal.SourceOptions;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Creates {@code files} sources: format {@code files} with option {@code format}, or directly
 * {@code json}, {@code csv} or {@code parquet}. An inferred schema is stored in the source's
 * checkpoint folder on first start and reused after restarts, so that it stays fixed even when the
 * files it came from were cleaned up.
 */
public final class FileSourceProvider implements SourceProvider {
  static final int COMPACT_INTERVAL = 10;
  private static final int SAMPLE_FILES = 10;
  private static final int SAMPLE_LINES = 1000;

  @Override
  public Set<String> formats() {
    return Set.of("files", "json", "csv", "parquet");
  }

  @Override
  public Set<String> options() {
    return FileSourceOptions.KEYS;
  }

  @Override
  public Source create(String format, SourceContext context) {
    return create(format, context, COMPACT_INTERVAL);
  }

  Source create(String format, SourceContext context, int compactInterval) {
    String fileFormat = fileFormat(format, context);
    SourceOptions raw = SourceOptions.check(format, context, options());
    FileSourceOptions options = FileSourceOptions.parse(fileFormat, raw);
    String path = context.path().orElseThrow(() -> new IllegalArgumentException(
        "The " + format + " source needs a path: set the folder (or S3 prefix) of the input files"));
    Location folder = context.resolver().apply(path);
    checkExists(folder);
    Optional<FileCleaner> cleaner = Optional.empty();
    if (options.cleanSource() != FileSourceOptions.CleanSource.OFF) {
      Optional<Location> archive = options.archiveDir().map(context.resolver());
      archive.ifPresent(a -> FileCleaner.checkArchive(folder, a));
      cleaner = Optional.of(new FileCleaner(folder, options.cleanSource() == FileSourceOptions.CleanSource.ARCHIVE
          ? archive : Optional.empty()));
    }
    StructType schema = context.userSchema().orElseGet(() -> inferredSchema(folder, options, context.metadataLocation()));
    RowLayout layout = new RowLayout(schema, context.userSchema().isPresent(), options.includeSourceColumn(),
        options.rescue().column(), options.corruptColumn());
    long settleMs = options.settleTimeMs().orElse(
        folder.store() instanceof LocalObjectStore ? FileSourceOptions.DEFAULT_SETTLE_LOCAL.toMillis() : 0);
    return new FileSource(folder, options, layout, context.metadataLocation(), cleaner, compactInterval,
        context.clock(), settleMs);
  }

  private static String fileFormat(String format, SourceContext context) {
    String f = format.toLowerCase(Locale.ROOT);
    if (f.equals("files")) {
      f = context.option("format").orElseThrow(() -> new IllegalArgumentException(
          "The files source needs option 'format': one of " + new TreeSet<>(FileSourceOptions.FORMATS)))
          .toLowerCase(Locale.ROOT);
    }
    if (!FileSourceOptions.FORMATS.contains(f)) {
      throw new IllegalArgumentException("Unknown file format '" + f + "': known formats are "
          + new TreeSet<>(FileSourceOptions.FORMATS) + "; fix the format name");
    }
    return f;
  }

  private static void checkExists(Location folder) {
    if (folder.store() instanceof LocalObjectStore local) {
      Path dir = folder.key().isEmpty() ? Path.of(local.root()) : local.pathOf(folder.key());
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException("Input folder " + dir + " of the files source does not exist (or is not"
            + " a folder): create it, or fix the source's path");
      }
    }
  }

  private static StructType inferredSchema(Location folder, FileSourceOptions options, Location metadata) {
    String schemaKey = metadata.resolve("schema").key();
    Optional<byte[]> stored = metadata.store().status(schemaKey).map(s -> metadata.store().read(schemaKey));
    if (stored.isPresent()) {
      return StructType.fromJson(new String(stored.get(), StandardCharsets.UTF_8));
    }
    if (!options.format().equals("parquet") && !options.inferSchema()) {
      throw new IllegalArgumentException("The " + options.format() + " source at " + folder + " needs a schema:"
          + " declare one, or set option inferSchema=true to infer it from the files present at start");
    }
    List<ObjectStatus> sample = sample(folder);
    if (sample.isEmpty()) {
      throw new IllegalArgumentException("Cannot infer the schema of the " + options.format() + " source: " + folder
          + " has no files yet; declare a schema, or start the query once the first file has arrived");
    }
    StructType schema = infer(folder, options, sample);
    try {
      metadata.store().create(schemaKey, schema.toJson().getBytes(StandardCharsets.UTF_8));
    } catch (ObjectAlreadyExistsException e) {
      return StructType.fromJson(new String(metadata.store().read(schemaKey), StandardCharsets.UTF_8));
    }
    return schema;
  }

  private static StructType infer(Location folder, FileSourceOptions options, List<ObjectStatus> sample) {
    if (options.format().equals("parquet")) {
      return ParquetSchemas.read(folder.store(), sample.get(0).key(), sample.get(0).size());
    }
    List<String> lines = new ArrayList<>();
    for (ObjectStatus s : sample) {
      String uri = folder.store().uriOf(s.key()).toString();
      List<String> fileLines = TextFileReader.lines(Compression.decode(s.key(), uri, folder.store().read(s.key())));
      lines.addAll(fileLines.subList(0, Math.min(fileLines.size(), SAMPLE_LINES)));
      if (lines.size() >= SAMPLE_LINES || options.format().equals("csv")) {
        break; // one CSV file: a second one would repeat its header
      }
    }
    return options.format().equals("json") ? SchemaInference.json(lines) : SchemaInference.csv(lines, options.csv());
  }

  /** The first files in discovery order. */
  private static List<ObjectStatus> sample(Location folder) {
    String prefix = folder.key().isEmpty() ? "" : folder.key() + "/";
    List<ObjectStatus> all = new ArrayList<>();
    try (CloseableIterator<ObjectStatus> it = folder.store().list(prefix)) {
      it.forEachRemaining(s -> {
        if (!FileSource.isHidden(s.key().substring(prefix.length()))) {
          all.add(s);
        }
      });
    }
    all.sort((a, b) -> a.modificationTime() != b.modificationTime()
        ? Long.compare(a.modificationTime(), b.modificationTime()) : a.key().compareTo(b.key()));
    return all.subList(0, Math.min(SAMPLE_FILES, all.size()));
  }
}
