package dev.sluice.bronze;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.SchemaEvolution;
import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.ProjectedRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * Turns the good rows of a batch (data columns, {@code _rescued_data}, {@code _source}, corrupt columns,
 * {@code _ingested_at}, {@code _batch_id}) into rows of the bronze table under its schema evolution policy:
 * <ul>
 *   <li>{@code rescue}: data columns, {@code _rescued_data}, lineage;
 *   <li>{@code addNewColumns}: data columns, lineage, then one nullable string column per new field (its JSON
 *       value, or the text of a string: like Auto Loader without type inference, a later value of another type
 *       still fits; silver casts);
 *   <li>{@code failOnNewColumns}: data columns, lineage; a new field fails the batch.
 * </ul>
 * Under the last two the source keeps wrong-typed values as corrupt rows (quarantined), so {@code _rescued_data}
 * only holds fields the schema lacks.
 */
final class BronzeRows {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A bronze table schema and rows in it. */
  record Shaped(StructType schema, List<Row> rows) {}

  private final String pipeline;
  private final SchemaEvolution policy;
  private final String tableUri;

  BronzeRows(String pipeline, SchemaEvolution policy, String tableUri) {
    this.pipeline = pipeline;
    this.policy = policy;
    this.tableUri = tableUri;
  }

  /** The columns the bronze table starts with for this source schema (data columns, then the lineage). */
  StructType baseSchema(StructType input) {
    StructType out = StructType.empty();
    for (StructField f : dataColumns(input)) {
      out = out.add(f);
    }
    if (policy == SchemaEvolution.RESCUE) {
      out = out.add(BronzeColumns.RESCUED, PrimitiveType.STRING);
    }
    for (StructField f : BronzeColumns.LINEAGE.fields()) {
      out = out.add(f);
    }
    return out;
  }

  /** The data columns: those before {@code _rescued_data} except the corrupt columns, wherever declared. */
  private static List<StructField> dataColumns(StructType input) {
    List<StructField> out = new ArrayList<>();
    for (int i : dataIndexes(input)) {
      out.add(input.field(i));
    }
    return out;
  }

  private static List<Integer> dataIndexes(StructType input) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < input.indexOf(BronzeColumns.RESCUED); i++) {
      String name = input.field(i).name();
      if (!name.equals(BronzeColumns.CORRUPT_RECORD) && !name.equals(BronzeColumns.CORRUPT_ERROR)) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * @param table the bronze table's current schema (empty before it exists): new fields already added by an
   *     earlier batch keep that column's spelling
   * @throws NewColumnsException for a new field the policy does not take
   */
  Shaped shape(StructType input, Batch goodRows, StructType table) {
    List<Row> good = goodRows.rows();
    StructType base = baseSchema(input);
    int rescued = input.indexOf(BronzeColumns.RESCUED);
    int source = input.indexOf(BronzeColumns.SOURCE);
    Map<String, String> added = new LinkedHashMap<>(); // lower-case name -> column name
    Map<Integer, Map<String, String>> extras = new HashMap<>(); // row position -> its new fields
    if (policy != SchemaEvolution.RESCUE) {
      int i = 0;
      for (Row r : good) {
        String json = (String) r.get(rescued);
        if (json != null) {
          extras.put(i, newFields(json, (String) r.get(source), base, table, added));
        }
        i++;
      }
    }
    StructType schema = base;
    for (String column : added.values()) {
      schema = schema.add(column, PrimitiveType.STRING);
    }
    int[] from = basePositions(input);
    if (added.isEmpty() && !goodRows.spilled()) {
      return new Shaped(schema, new ProjectedRows(good, from));
    }
    Batch.Builder rows = Batch.builder(schema);
    int i = 0;
    for (Row r : good) {
      rows.add(added.isEmpty() ? new ProjectedRow(r, from) : withNewColumns(r, from, schema.size(), added, extras.get(i)));
      i++;
    }
    return new Shaped(schema, rows.build().rows());
  }

  /**
   * The rows of a batch held in the heap, each read through the bronze table's column order ({@link ProjectedRow}) as
   * the writer takes it: nothing is copied or collected again. Random access, so that a large append is written as
   * several files at once; the view's index is built before the writer's threads read it.
   */
  private static final class ProjectedRows extends AbstractList<Row> implements RandomAccess {
    private final List<Row> rows;
    private final int[] from;

    ProjectedRows(List<Row> rows, int[] from) {
      this.rows = rows;
      this.from = from;
      if (!rows.isEmpty()) {
        rows.get(0); // a view of kept rows builds its position index on the first get: here, on one thread
      }
    }

    @Override
    public Row get(int index) {
      return new ProjectedRow(rows.get(index), from);
    }

    @Override
    public int size() {
      return rows.size();
    }

    @Override
    public Iterator<Row> iterator() {
      Iterator<Row> it = rows.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public Row next() {
          return new ProjectedRow(it.next(), from);
        }
      };
    }
  }

  /** For each column of {@link #baseSchema}, its position in the input row. */
  private int[] basePositions(StructType input) {
    List<Integer> out = new ArrayList<>(dataIndexes(input));
    if (policy == SchemaEvolution.RESCUE) {
      out.add(input.indexOf(BronzeColumns.RESCUED));
    }
    for (StructField f : BronzeColumns.LINEAGE.fields()) {
      out.add(input.indexOf(f.name()));
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static Row withNewColumns(Row r, int[] from, int width, Map<String, String> added,
      Map<String, String> extra) {
    Object[] values = new Object[width];
    int k = 0;
    for (int c : from) {
      values[k++] = r.get(c);
    }
    for (String column : added.values()) {
      values[k++] = extra == null ? null : extra.get(column);
    }
    return Row.of(values);
  }

  /** The row's new fields as column name -> text; registers new columns in {@code added}. */
  private Map<String, String> newFields(String json, String file, StructType base, StructType table,
      Map<String, String> added) {
    JsonNode rescued = parse(json, file);
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = rescued.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String field = e.getKey();
      if (policy == SchemaEvolution.FAIL_ON_NEW_COLUMNS) {
        throw new NewColumnsException("Pipeline '" + pipeline + "': field '" + field + "' in file " + file
            + " is not in the schema of bronze table " + tableUri + " (schema_evolution: failOnNewColumns); the batch"
            + " was not written. Add the field to source.schema, or set schema_evolution to addNewColumns or rescue.",
            field, file);
      }
      String column = columnFor(field, file, base, table, added);
      out.put(column, e.getValue().isTextual() ? e.getValue().textValue() : e.getValue().toString());
    }
    return out;
  }

  private String columnFor(String field, String file, StructType base, StructType table, Map<String, String> added) {
    String key = field.toLowerCase(java.util.Locale.ROOT);
    String known = added.get(key);
    if (known != null) {
      return known;
    }
    int dot = Math.max(field.indexOf('.'), field.indexOf('['));
    if (dot > 0 && base.indexOf(field.substring(0, dot)) >= 0) {
      throw refused(field, file, "is new inside column '" + field.substring(0, dot) + "', and addNewColumns only"
          + " adds top-level columns. Declare the nested field in source.schema, or use schema_evolution: rescue.");
    }
    if (base.indexOf(field) >= 0) {
      throw refused(field, file, "has the name (ignoring case) of column '" + base.field(base.indexOf(field)).name()
          + "' that the table already has. Rename the field in the input, or use schema_evolution: rescue.");
    }
    int existing = table.indexOf(field);
    String column = existing >= 0 ? table.field(existing).name() : field;
    added.put(key, column);
    return column;
  }

  private NewColumnsException refused(String field, String file, String why) {
    return new NewColumnsException("Pipeline '" + pipeline + "': field '" + field + "' in file " + file + " " + why,
        field, file);
  }

  private JsonNode parse(String json, String file) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Pipeline '" + pipeline + "': the rescued data of a row of file " + file
          + " is not a JSON object (" + e.getOriginalMessage() + "); this is a bug in the files source", e);
    }
  }
}
