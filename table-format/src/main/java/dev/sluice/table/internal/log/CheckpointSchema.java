package dev.sluice.table.internal.log;

import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.actions.SetTransaction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Spark's classic (V1) checkpoint schema as Avro, and the conversion between its rows and actions.
 * Every column is nullable; each row holds exactly one action.
 */
final class CheckpointSchema {
  static final Schema TXN = SchemaBuilder.record("txn").namespace("delta.checkpoint").fields()
      .optionalString("appId").optionalLong("version").optionalLong("lastUpdated").endRecord();
  static final Schema ADD = SchemaBuilder.record("add").namespace("delta.checkpoint").fields()
      .optionalString("path")
      .name("partitionValues").type(optional(stringMap())).withDefault(null)
      .optionalLong("size").optionalLong("modificationTime").optionalBoolean("dataChange")
      .name("tags").type(optional(stringMap())).withDefault(null)
      .name("deletionVector").type(optional(deletionVector("add"))).withDefault(null)
      .optionalLong("baseRowId").optionalLong("defaultRowCommitVersion")
      .optionalString("stats")
      .endRecord();
  static final Schema REMOVE = SchemaBuilder.record("remove").namespace("delta.checkpoint").fields()
      .optionalString("path").optionalLong("deletionTimestamp").optionalBoolean("dataChange")
      .optionalBoolean("extendedFileMetadata")
      .name("partitionValues").type(optional(stringMap())).withDefault(null)
      .optionalLong("size")
      .name("deletionVector").type(optional(deletionVector("remove"))).withDefault(null)
      .optionalLong("baseRowId").optionalLong("defaultRowCommitVersion")
      .endRecord();
  static final Schema FORMAT = SchemaBuilder.record("format").namespace("delta.checkpoint").fields()
      .optionalString("provider")
      .name("options").type(optional(stringMap())).withDefault(null)
      .endRecord();
  static final Schema METADATA = SchemaBuilder.record("metaData").namespace("delta.checkpoint").fields()
      .optionalString("id").optionalString("name").optionalString("description")
      .name("format").type(optional(FORMAT)).withDefault(null)
      .optionalString("schemaString")
      .name("partitionColumns").type(optional(stringArray())).withDefault(null)
      .name("configuration").type(optional(stringMap())).withDefault(null)
      .optionalLong("createdTime")
      .endRecord();
  static final Schema PROTOCOL = SchemaBuilder.record("protocol").namespace("delta.checkpoint").fields()
      .optionalInt("minReaderVersion").optionalInt("minWriterVersion")
      .name("readerFeatures").type(optional(stringArray())).withDefault(null)
      .name("writerFeatures").type(optional(stringArray())).withDefault(null)
      .endRecord();
  static final Schema CHECKPOINT = SchemaBuilder.record("checkpoint").namespace("delta").fields()
      .name("txn").type(optional(TXN)).withDefault(null)
      .name("add").type(optional(ADD)).withDefault(null)
      .name("remove").type(optional(REMOVE)).withDefault(null)
      .name("metaData").type(optional(METADATA)).withDefault(null)
      .name("protocol").type(optional(PROTOCOL)).withDefault(null)
      .endRecord();

  private CheckpointSchema() {}

  private static Schema optional(Schema s) {
    return Schema.createUnion(Schema.create(Schema.Type.NULL), s);
  }

  private static Schema stringMap() {
    return Schema.createMap(optional(Schema.create(Schema.Type.STRING)));
  }

  private static Schema stringArray() {
    return Schema.createArray(optional(Schema.create(Schema.Type.STRING)));
  }

  private static Schema deletionVector(String owner) {
    return SchemaBuilder.record("deletionVector").namespace("delta.checkpoint." + owner).fields()
        .optionalString("storageType").optionalString("pathOrInlineDv").optionalInt("offset")
        .optionalInt("sizeInBytes").optionalLong("cardinality").optionalLong("maxRowIndex")
        .endRecord();
  }

  // ---- rows → actions

  /** The action in a row, empty for rows of actions Sluice does not model (domainMetadata, sidecar, ...). */
  static Optional<Action> toAction(GenericRecord row) {
    GenericRecord r;
    if ((r = field(row, "add")) != null && str(r, "path") != null) {
      GenericRecord dv = field(r, "deletionVector");
      return Optional.of(new AddFile(str(r, "path"), map(r.get("partitionValues")), lng(r, "size", 0L),
          lng(r, "modificationTime", 0L), bool(r, "dataChange", false), str(r, "stats"), map(r.get("tags")),
          dv == null ? null : dv.toString()));
    }
    if ((r = field(row, "remove")) != null && str(r, "path") != null) {
      GenericRecord dv = field(r, "deletionVector");
      return Optional.of(new RemoveFile(str(r, "path"), lng(r, "deletionTimestamp", null),
          bool(r, "dataChange", false), (Boolean) value(r, "extendedFileMetadata"), map(r.get("partitionValues")),
          lng(r, "size", null), null, null, dv == null ? null : dv.toString()));
    }
    if ((r = field(row, "txn")) != null && str(r, "appId") != null) {
      return Optional.of(new SetTransaction(str(r, "appId"), lng(r, "version", 0L), lng(r, "lastUpdated", null)));
    }
    if ((r = field(row, "metaData")) != null && str(r, "id") != null) {
      GenericRecord format = field(r, "format");
      return Optional.of(new Metadata(str(r, "id"), str(r, "name"), str(r, "description"),
          format == null ? null : str(format, "provider"), format == null ? null : nonNullMap(format.get("options")),
          str(r, "schemaString"), list(r.get("partitionColumns")), nonNullMap(r.get("configuration")),
          lng(r, "createdTime", null)));
    }
    if ((r = field(row, "protocol")) != null && value(r, "minReaderVersion") != null) {
      return Optional.of(new Protocol(((Number) value(r, "minReaderVersion")).intValue(),
          ((Number) value(r, "minWriterVersion")).intValue(), list(r.get("readerFeatures")),
          list(r.get("writerFeatures"))));
    }
    return Optional.empty();
  }

  private static Object value(GenericRecord r, String name) {
    return r.hasField(name) ? r.get(name) : null;
  }

  private static GenericRecord field(GenericRecord r, String name) {
    return (GenericRecord) value(r, name);
  }

  private static String str(GenericRecord r, String name) {
    Object v = value(r, name);
    return v == null ? null : v.toString();
  }

  private static Long lng(GenericRecord r, String name, Long orElse) {
    Object v = value(r, name);
    return v == null ? orElse : Long.valueOf(((Number) v).longValue());
  }

  private static boolean bool(GenericRecord r, String name, boolean orElse) {
    Object v = value(r, name);
    return v == null ? orElse : (Boolean) v;
  }

  private static Map<String, String> map(Object v) {
    if (v == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    ((Map<?, ?>) v).forEach((k, x) -> out.put(k.toString(), x == null ? null : x.toString()));
    return out;
  }

  private static Map<String, String> nonNullMap(Object v) {
    Map<String, String> m = map(v);
    if (m != null) {
      m.values().removeIf(java.util.Objects::isNull);
    }
    return m;
  }

  private static List<String> list(Object v) {
    if (v == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (Object o : (Collection<?>) v) {
      // Some writers' 3-level lists surface through parquet-avro as records with one "element" field.
      if (o instanceof GenericRecord wrapped && wrapped.getSchema().getFields().size() == 1) {
        o = wrapped.get(0);
      }
      out.add(o == null ? null : o.toString());
    }
    return out;
  }

  // ---- actions → rows

  /** A deletion vector's struct in a checkpoint, from its log JSON (a checkpoint that dropped it would undelete rows). */
  private static GenericRecord deletionVectorRecord(Schema owner, String json) {
    if (json == null) {
      return null;
    }
    dev.sluice.table.internal.dv.DeletionVectorDescriptor dv =
        dev.sluice.table.internal.dv.DeletionVectorDescriptor.parse(json, "a checkpoint");
    Schema schema = owner.getField("deletionVector").schema().getTypes().stream()
        .filter(t -> t.getType() == Schema.Type.RECORD).findFirst().orElseThrow();
    GenericData.Record r = new GenericData.Record(schema);
    r.put("storageType", dv.storageType());
    r.put("pathOrInlineDv", dv.pathOrInlineDv());
    r.put("offset", dv.offset());
    r.put("sizeInBytes", dv.sizeInBytes());
    r.put("cardinality", dv.cardinality());
    return r;
  }

  static GenericRecord row(Action action) {
    GenericData.Record row = new GenericData.Record(CHECKPOINT);
    if (action instanceof AddFile a) {
      GenericData.Record r = new GenericData.Record(ADD);
      r.put("path", a.path());
      r.put("partitionValues", a.partitionValues());
      r.put("size", a.size());
      r.put("modificationTime", a.modificationTime());
      // Checkpoints hold the state, not a change: Spark writes every add with dataChange=false.
      r.put("dataChange", false);
      r.put("tags", a.tags());
      r.put("stats", a.stats());
      r.put("deletionVector", deletionVectorRecord(ADD, a.deletionVectorJson()));
      row.put("add", r);
    } else if (action instanceof RemoveFile rm) {
      GenericData.Record r = new GenericData.Record(REMOVE);
      r.put("path", rm.path());
      r.put("deletionTimestamp", rm.deletionTimestamp());
      r.put("dataChange", false);
      r.put("extendedFileMetadata", rm.extendedFileMetadata());
      r.put("partitionValues", rm.partitionValues());
      r.put("size", rm.size());
      r.put("deletionVector", deletionVectorRecord(REMOVE, rm.deletionVectorJson()));
      row.put("remove", r);
    } else if (action instanceof SetTransaction t) {
      GenericData.Record r = new GenericData.Record(TXN);
      r.put("appId", t.appId());
      r.put("version", t.version());
      r.put("lastUpdated", t.lastUpdated());
      row.put("txn", r);
    } else if (action instanceof Metadata m) {
      GenericData.Record format = new GenericData.Record(FORMAT);
      format.put("provider", m.formatProvider());
      format.put("options", m.formatOptions());
      GenericData.Record r = new GenericData.Record(METADATA);
      r.put("id", m.id());
      r.put("name", m.name());
      r.put("description", m.description());
      r.put("format", format);
      r.put("schemaString", m.schemaString());
      r.put("partitionColumns", m.partitionColumns());
      r.put("configuration", m.configuration());
      r.put("createdTime", m.createdTime());
      row.put("metaData", r);
    } else if (action instanceof Protocol p) {
      GenericData.Record r = new GenericData.Record(PROTOCOL);
      r.put("minReaderVersion", p.minReaderVersion());
      r.put("minWriterVersion", p.minWriterVersion());
      r.put("readerFeatures", p.readerFeatures());
      r.put("writerFeatures", p.writerFeatures());
      row.put("protocol", r);
    } else {
      throw new IllegalArgumentException("A checkpoint holds no " + action.getClass().getSimpleName() + " actions");
    }
    return row;
  }
}
