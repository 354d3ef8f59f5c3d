package dev.sluice.table.internal.actions;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.table.exceptions.InvalidTableException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and writes Delta log actions as the single-line JSON objects of a commit file, with Spark's
 * field names and order. Unknown actions and fields are ignored when reading, as the protocol demands.
 */
public final class ActionParser {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The commitInfo fields Spark writes, in its order; modelled ones come from the record, the rest from extra. */
  private static final List<String> COMMIT_INFO_ORDER = List.of(
      "inCommitTimestamp", "timestamp", "userId", "userName", "operation", "operationParameters", "job",
      "notebook", "clusterId", "readVersion", "isolationLevel", "isBlindAppend", "operationMetrics",
      "userMetadata", "tags", "engineInfo", "txnId");
  private static final Set<String> COMMIT_INFO_MODELLED = Set.of(
      "timestamp", "operation", "operationParameters", "readVersion", "isolationLevel", "isBlindAppend",
      "operationMetrics", "engineInfo", "txnId", "userMetadata");

  private ActionParser() {}

  /**
   * The action on one line of a commit file; empty for a blank line or an action Sluice does not model
   * (e.g. {@code domainMetadata}).
   *
   * @throws IllegalArgumentException if the line is not a JSON object or a modelled action lacks a required field
   */
  public static Optional<Action> parseLine(String jsonLine) {
    if (jsonLine.isBlank()) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(jsonLine);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("a log line must be a JSON object, but got: " + abbreviate(jsonLine));
    }
    Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> e = fields.next();
      JsonNode v = e.getValue();
      if (v == null || v.isNull()) {
        continue;
      }
      Action action = switch (e.getKey()) {
        case "protocol" -> parseProtocol(v);
        case "metaData" -> parseMetadata(v);
        case "add" -> parseAdd(v);
        case "remove" -> parseRemove(v);
        case "txn" -> new SetTransaction(requiredText(v, "txn", "appId"), requiredLong(v, "txn", "version"),
            optLong(v, "lastUpdated"));
        case "commitInfo" -> parseCommitInfo(v);
        case "cdc" -> new AddCdcFile(requiredText(v, "cdc", "path"), stringMap(v.get("partitionValues")),
            requiredLong(v, "cdc", "size"), stringMap(v.get("tags")));
        default -> null;
      };
      if (action != null) {
        return Optional.of(action);
      }
    }
    return Optional.empty();
  }

  /**
   * All modelled actions of a commit file (newline-delimited JSON), in file order.
   *
   * @throws InvalidTableException naming {@code fileForErrors} and the line number if a line is malformed
   */
  public static List<Action> parseCommit(byte[] ndjson, String fileForErrors) {
    String text = new String(ndjson, StandardCharsets.UTF_8);
    List<Action> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : text.split("\n", -1)) {
      lineNo++;
      try {
        parseLine(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line).ifPresent(out::add);
      } catch (IllegalArgumentException | NullPointerException e) {
        throw new InvalidTableException("Line " + lineNo + " of the Delta log file " + fileForErrors
            + " cannot be read: " + e.getMessage() + ". The file is corrupt or was not written by a Delta"
            + " writer; restore it from a backup or time-travel to an earlier version.", e);
      }
    }
    return out;
  }

  /** One action as a single JSON line (no newline). */
  public static String toJson(Action action) {
    StringWriter sw = new StringWriter();
    try (JsonGenerator g = MAPPER.getFactory().createGenerator(sw)) {
      g.writeStartObject();
      if (action instanceof Protocol p) {
        writeProtocol(g, p);
      } else if (action instanceof Metadata m) {
        writeMetadata(g, m);
      } else if (action instanceof AddFile a) {
        writeAdd(g, a);
      } else if (action instanceof RemoveFile r) {
        writeRemove(g, r);
      } else if (action instanceof SetTransaction t) {
        writeTxn(g, t);
      } else if (action instanceof CommitInfo c) {
        writeCommitInfo(g, c);
      } else if (action instanceof AddCdcFile c) {
        writeCdc(g, c);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sw.toString();
  }

  /** The bytes of a commit file: one line per action, each newline-terminated, commitInfo first. */
  public static byte[] serializeCommit(List<Action> actions) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Action> ordered = new ArrayList<>(actions.size());
    actions.stream().filter(a -> a instanceof CommitInfo).forEach(ordered::add);
    actions.stream().filter(a -> !(a instanceof CommitInfo)).forEach(ordered::add);
    for (Action a : ordered) {
      out.writeBytes(toJson(a).getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    }
    return out.toByteArray();
  }

  // ---- reading

  private static Protocol parseProtocol(JsonNode v) {
    return new Protocol((int) requiredLong(v, "protocol", "minReaderVersion"),
        (int) requiredLong(v, "protocol", "minWriterVersion"), stringList(v.get("readerFeatures")),
        stringList(v.get("writerFeatures")));
  }

  private static Metadata parseMetadata(JsonNode v) {
    JsonNode format = v.get("format");
    String provider = format == null ? null : optText(format, "provider");
    Map<String, String> options = format == null ? null : stringMap(format.get("options"));
    return new Metadata(requiredText(v, "metaData", "id"), optText(v, "name"), optText(v, "description"),
        provider, options, optText(v, "schemaString"), stringList(v.get("partitionColumns")),
        stringMap(v.get("configuration")), optLong(v, "createdTime"));
  }

  private static AddFile parseAdd(JsonNode v) {
    JsonNode dv = v.get("deletionVector");
    return new AddFile(requiredText(v, "add", "path"), stringMapWithNulls(v.get("partitionValues")),
        requiredLong(v, "add", "size"), requiredLong(v, "add", "modificationTime"),
        v.path("dataChange").asBoolean(true), optText(v, "stats"), stringMap(v.get("tags")),
        dv == null || dv.isNull() ? null : dv.toString());
  }

  private static RemoveFile parseRemove(JsonNode v) {
    JsonNode ext = v.get("extendedFileMetadata");
    return new RemoveFile(requiredText(v, "remove", "path"), optLong(v, "deletionTimestamp"),
        v.path("dataChange").asBoolean(true), ext == null || ext.isNull() ? null : ext.asBoolean(),
        stringMapWithNulls(v.get("partitionValues")), optLong(v, "size"), optText(v, "stats"),
        stringMap(v.get("tags")), v.get("deletionVector") == null || v.get("deletionVector").isNull() ? null
            : v.get("deletionVector").toString());
  }

  private static CommitInfo parseCommitInfo(JsonNode v) {
    Map<String, Object> extra = new LinkedHashMap<>();
    v.fields().forEachRemaining(e -> {
      if (!COMMIT_INFO_MODELLED.contains(e.getKey()) && !e.getValue().isNull()) {
        extra.put(e.getKey(), MAPPER.convertValue(e.getValue(), Object.class));
      }
    });
    JsonNode blind = v.get("isBlindAppend");
    return new CommitInfo(optLong(v, "timestamp"), optText(v, "operation"), stringMap(v.get("operationParameters")),
        optLong(v, "readVersion"), optText(v, "isolationLevel"),
        blind == null || blind.isNull() ? null : blind.asBoolean(), stringMap(v.get("operationMetrics")),
        optText(v, "engineInfo"), optText(v, "txnId"), optText(v, "userMetadata"), extra);
  }

  private static String requiredText(JsonNode v, String action, String field) {
    JsonNode n = v.get(field);
    if (n == null || n.isNull()) {
      throw new IllegalArgumentException("the '" + action + "' action has no '" + field + "'");
    }
    return n.asText();
  }

  private static long requiredLong(JsonNode v, String action, String field) {
    JsonNode n = v.get(field);
    if (n == null || n.isNull() || !(n.isNumber() || n.isTextual())) {
      throw new IllegalArgumentException("the '" + action + "' action has no numeric '" + field + "'");
    }
    if (n.isTextual()) {
      try {
        return Long.parseLong(n.asText());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("the '" + action + "' action's '" + field + "' is not a number: " + n);
      }
    }
    return n.asLong();
  }

  private static String optText(JsonNode v, String field) {
    JsonNode n = v.get(field);
    return n == null || n.isNull() ? null : n.asText();
  }

  private static Long optLong(JsonNode v, String field) {
    JsonNode n = v.get(field);
    return n == null || n.isNull() ? null : n.asLong();
  }

  private static List<String> stringList(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    n.forEach(e -> out.add(e.asText()));
    return out;
  }

  /** A string map whose JSON null values are dropped (they carry no information in tags or metrics). */
  private static Map<String, String> stringMap(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    n.fields().forEachRemaining(e -> {
      if (!e.getValue().isNull()) {
        out.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
      }
    });
    return out;
  }

  /** Partition values keep JSON null: it means a null partition value, distinct from a missing column. */
  private static Map<String, String> stringMapWithNulls(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    n.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    return out;
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }

  // ---- writing

  private static void writeProtocol(JsonGenerator g, Protocol p) throws IOException {
    g.writeObjectFieldStart("protocol");
    g.writeNumberField("minReaderVersion", p.minReaderVersion());
    g.writeNumberField("minWriterVersion", p.minWriterVersion());
    writeList(g, "readerFeatures", p.readerFeatures());
    writeList(g, "writerFeatures", p.writerFeatures());
    g.writeEndObject();
  }

  private static void writeMetadata(JsonGenerator g, Metadata m) throws IOException {
    g.writeObjectFieldStart("metaData");
    g.writeStringField("id", m.id());
    writeOpt(g, "name", m.name());
    writeOpt(g, "description", m.description());
    g.writeObjectFieldStart("format");
    g.writeStringField("provider", m.formatProvider());
    writeMap(g, "options", m.formatOptions());
    g.writeEndObject();
    writeOpt(g, "schemaString", m.schemaString());
    writeList(g, "partitionColumns", m.partitionColumns());
    writeMap(g, "configuration", m.configuration());
    if (m.createdTime() != null) {
      g.writeNumberField("createdTime", m.createdTime());
    }
    g.writeEndObject();
  }

  private static void writeAdd(JsonGenerator g, AddFile a) throws IOException {
    g.writeObjectFieldStart("add");
    g.writeStringField("path", a.path());
    writeMap(g, "partitionValues", a.partitionValues());
    g.writeNumberField("size", a.size());
    g.writeNumberField("modificationTime", a.modificationTime());
    g.writeBooleanField("dataChange", a.dataChange());
    writeOpt(g, "stats", a.stats());
    if (a.tags() != null) {
      writeMap(g, "tags", a.tags());
    }
    if (a.deletionVectorJson() != null) {
      g.writeFieldName("deletionVector");
      g.writeRawValue(a.deletionVectorJson());
    }
    g.writeEndObject();
  }

  private static void writeRemove(JsonGenerator g, RemoveFile r) throws IOException {
    g.writeObjectFieldStart("remove");
    g.writeStringField("path", r.path());
    if (r.deletionTimestamp() != null) {
      g.writeNumberField("deletionTimestamp", r.deletionTimestamp());
    }
    g.writeBooleanField("dataChange", r.dataChange());
    if (r.extendedFileMetadata() != null) {
      g.writeBooleanField("extendedFileMetadata", r.extendedFileMetadata());
    }
    if (r.partitionValues() != null) {
      writeMap(g, "partitionValues", r.partitionValues());
    }
    if (r.size() != null) {
      g.writeNumberField("size", r.size());
    }
    writeOpt(g, "stats", r.stats());
    if (r.tags() != null) {
      writeMap(g, "tags", r.tags());
    }
    if (r.deletionVectorJson() != null) {
      g.writeFieldName("deletionVector");
      g.writeRawValue(r.deletionVectorJson());
    }
    g.writeEndObject();
  }

  private static void writeTxn(JsonGenerator g, SetTransaction t) throws IOException {
    g.writeObjectFieldStart("txn");
    g.writeStringField("appId", t.appId());
    g.writeNumberField("version", t.version());
    if (t.lastUpdated() != null) {
      g.writeNumberField("lastUpdated", t.lastUpdated());
    }
    g.writeEndObject();
  }

  private static void writeCdc(JsonGenerator g, AddCdcFile c) throws IOException {
    g.writeObjectFieldStart("cdc");
    g.writeStringField("path", c.path());
    writeMap(g, "partitionValues", c.partitionValues());
    g.writeNumberField("size", c.size());
    if (c.tags() != null) {
      writeMap(g, "tags", c.tags());
    }
    g.writeBooleanField("dataChange", false);
    g.writeEndObject();
  }

  private static void writeCommitInfo(JsonGenerator g, CommitInfo c) throws IOException {
    Map<String, Object> modelled = new LinkedHashMap<>();
    modelled.put("timestamp", c.timestamp());
    modelled.put("operation", c.operation());
    modelled.put("operationParameters", c.operationParameters());
    modelled.put("readVersion", c.readVersion());
    modelled.put("isolationLevel", c.isolationLevel());
    modelled.put("isBlindAppend", c.isBlindAppend());
    modelled.put("operationMetrics", c.operationMetrics());
    modelled.put("engineInfo", c.engineInfo());
    modelled.put("txnId", c.txnId());
    modelled.put("userMetadata", c.userMetadata());
    Set<String> keys = new LinkedHashSet<>(COMMIT_INFO_ORDER);
    keys.addAll(c.extra().keySet());
    ObjectNode node = MAPPER.createObjectNode();
    for (String key : keys) {
      Object value = COMMIT_INFO_MODELLED.contains(key) ? modelled.get(key) : c.extra().get(key);
      if (value != null) {
        node.set(key, MAPPER.valueToTree(value));
      }
    }
    g.writeFieldName("commitInfo");
    g.writeTree(node);
  }

  private static void writeOpt(JsonGenerator g, String field, String value) throws IOException {
    if (value != null) {
      g.writeStringField(field, value);
    }
  }

  private static void writeList(JsonGenerator g, String field, List<String> values) throws IOException {
    if (values == null) {
      return;
    }
    g.writeArrayFieldStart(field);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  private static void writeMap(JsonGenerator g, String field, Map<String, String> map) throws IOException {
    g.writeObjectFieldStart(field);
    for (Map.Entry<String, String> e : map.entrySet()) {
      if (e.getValue() == null) {
        g.writeNullField(e.getKey());
      } else {
        g.writeStringField(e.getKey(), e.getValue());
      }
    }
    g.writeEndObject();
  }
}
