package dev.sluice.ingestion.source;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows added from Java that a query reads as a stream (format {@code memory}, option {@code name}),
 * for tests. Offset {@code {"offset":N}} means the first N rows; {@link #addData} is thread-safe.
 * Streams live in a static registry by name until {@link #remove}d.
 */
public final class MemoryStream {
  private static final Map<String, MemoryStream> REGISTRY = new ConcurrentHashMap<>();
  private static final AtomicLong NEXT_ID = new AtomicLong();
  private static final String FIELD = "offset";

  private final String name;
  private final StructType schema;
  private final List<Row> rows = new ArrayList<>();

  private MemoryStream(String name, StructType schema) {
    this.name = name;
    this.schema = schema;
  }

  /** A new stream with a generated unique name. */
  public static MemoryStream create(StructType schema) {
    String name = "memory-" + NEXT_ID.incrementAndGet();
    return named(name, schema);
  }

  /**
   * The stream registered as {@code name}, created if absent.
   *
   * @throws IllegalArgumentException if it exists with a different schema
   */
  public static MemoryStream named(String name, StructType schema) {
    MemoryStream stream = REGISTRY.computeIfAbsent(name, n -> new MemoryStream(n, schema));
    if (!stream.schema.equals(schema)) {
      throw new IllegalArgumentException("Memory stream '" + name + "' exists with schema " + stream.schema
          + ", not " + schema + "; use another name or remove the stream first");
    }
    return stream;
  }

  /**
   * The registered stream.
   *
   * @throws IllegalArgumentException naming the registered streams if there is none by that name
   */
  public static MemoryStream lookup(String name) {
    MemoryStream stream = REGISTRY.get(name);
    if (stream == null) {
      throw new IllegalArgumentException("No memory stream named '" + name + "': create it with MemoryStream.named(\""
          + name + "\", schema) before starting the query; registered: " + new java.util.TreeSet<>(REGISTRY.keySet()));
    }
    return stream;
  }

  /** Unregisters the stream named {@code name}, if any. */
  public static void remove(String name) {
    REGISTRY.remove(name);
  }

  public String name() {
    return name;
  }

  public StructType schema() {
    return schema;
  }

  /**
   * Appends rows; returns the offset that includes them.
   *
   * @throws IllegalArgumentException if a row's width does not match the schema
   */
  public SourceOffset addData(Row... data) {
    return addData(Arrays.asList(data));
  }

  /** See {@link #addData(Row...)}. */
  public SourceOffset addData(List<Row> data) {
    for (Row r : data) {
      if (r.size() != schema.size()) {
        throw new IllegalArgumentException("Row " + r + " has " + r.size() + " values but memory stream '" + name
            + "' has " + schema.size() + " columns " + schema.fieldNames() + "; add rows that match the schema");
      }
    }
    synchronized (rows) {
      rows.addAll(data);
      return offset(rows.size());
    }
  }

  /** A source over this stream (several sources may read the same stream). */
  public Source source() {
    return new MemorySource();
  }

  private static SourceOffset offset(long n) {
    return new SourceOffset("{\"" + FIELD + "\":" + n + "}");
  }

  private static long parse(SourceOffset offset) {
    String json = offset.json().replace(" ", "");
    String head = "{\"" + FIELD + "\":";
    if (!json.startsWith(head) || !json.endsWith("}")) {
      throw new IllegalArgumentException("Offset " + offset + " is not a memory stream offset {\"offset\":N}: the"
          + " checkpoint was written by a different source; start the query with a new checkpoint");
    }
    try {
      return Long.parseLong(json.substring(head.length(), json.length() - 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Offset " + offset + " is not a memory stream offset {\"offset\":N}", e);
    }
  }

  private final class MemorySource implements Source {
    @Override
    public StructType schema() {
      return schema;
    }

    @Override
    public Optional<SourceOffset> latestOffset(Optional<SourceOffset> start, ReadLimit limit) {
      long from = start.map(MemoryStream::parse).orElse(0L);
      long size;
      synchronized (rows) {
        size = rows.size();
      }
      long end = limit.maxRecords() == Long.MAX_VALUE ? size : Math.min(size, from + limit.maxRecords());
      return end > from ? Optional.of(offset(end)) : Optional.empty();
    }

    @Override
    public Batch getBatch(Optional<SourceOffset> start, SourceOffset end) {
      int from = (int) (long) start.map(MemoryStream::parse).orElse(0L);
      int to = (int) parse(end);
      synchronized (rows) {
        if (to > rows.size() || from > to) {
          throw new IllegalArgumentException("Memory stream '" + name + "' has " + rows.size() + " rows; it cannot"
              + " return rows (" + from + ", " + to + "]");
        }
        return new Batch(schema, new ArrayList<>(rows.subList(from, to)));
      }
    }

    @Override
    public String description() {
      return "MemoryStream[" + name + "]";
    }
  }
}
