package dev.sluice.table.internal.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which Delta protocols Sluice reads and writes. Reads: reader version 1, or 3 with reader features
 * {@code deletionVectors} and {@code vacuumProtocolCheck} only.
 * Writes: additionally writer version 1 or 2, or 7 with only {@code appendOnly}, {@code invariants},
 * {@code changeDataFeed}, {@code deletionVectors} and {@code vacuumProtocolCheck}, and no column carrying
 * {@code delta.invariants} (Sluice does not evaluate them).
 */
public final class ProtocolSupport {
  /**
   * The reader-writer feature that obliges VACUUM to check the writer protocol too; it changes nothing else, and
   * {@code dev.sluice.table.Vacuum} honours it.
   */
  public static final String VACUUM_PROTOCOL_CHECK = "vacuumProtocolCheck";
  /** Reader features Sluice implements: deletion vectors (rows they name are left out of every read) and the vacuum check. */
  static final Set<String> READER_FEATURES = Set.of("deletionVectors", VACUUM_PROTOCOL_CHECK);
  /**
   * Writer features Sluice implements when writing (invariants only while no column declares one). With
   * {@code deletionVectors} a writer may rewrite a file that has one (its rows read without the deleted ones, its
   * remove naming the DV) and keeps numRecords in every add; with {@code delta.enableDeletionVectors=true} it
   * writes new DVs ({@code internal.write.DeletionVectorUpdate}).
   */
  static final Set<String> WRITER_FEATURES = Set.of("appendOnly", "invariants", "changeDataFeed", "deletionVectors",
      VACUUM_PROTOCOL_CHECK);
  /** Writer-only features that still change what a reader sees (string ordering, so stats and comparisons). */
  private static final Set<String> READ_AFFECTING_WRITER_FEATURES = Set.of("collations", "collations-preview");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ProtocolSupport() {}

  /**
   * Refuses tables Sluice cannot read correctly.
   *
   * @param table the table URI, for the message
   * @throws UnsupportedTableFeatureException naming the protocol version or features needed
   */
  public static void checkReadable(Protocol protocol, Metadata metadata, String table) {
    int reader = protocol.minReaderVersion();
    if (reader == 2) {
      throw unsupportedRead(table, "reader version 2 (column mapping, feature 'columnMapping')");
    }
    if (reader != 1 && reader != 3) {
      throw unsupportedRead(table, "reader version " + reader);
    }
    if (reader == 3 && protocol.readerFeatures() != null) {
      List<String> missing = new ArrayList<>(protocol.readerFeatures());
      missing.removeAll(READER_FEATURES);
      if (!missing.isEmpty()) {
        throw unsupportedRead(table, "reader features " + missing);
      }
    }
    if (protocol.writerFeatures() != null) {
      List<String> affecting = new ArrayList<>(protocol.writerFeatures());
      affecting.retainAll(READ_AFFECTING_WRITER_FEATURES);
      if (!affecting.isEmpty()) {
        throw unsupportedRead(table, "features " + affecting + " (collated strings change comparisons and statistics)");
      }
    }
    String mode = metadata == null ? null : metadata.configuration().get("delta.columnMapping.mode");
    if (mode != null && !mode.equalsIgnoreCase("none")) {
      throw unsupportedRead(table, "column mapping (feature 'columnMapping', delta.columnMapping.mode=" + mode + ")");
    }
    checkSchemaTypes(metadata, table);
  }

  /**
   * Refuses tables Sluice cannot write correctly (and any it cannot read).
   *
   * @throws UnsupportedTableFeatureException naming what writing would need
   */
  public static void checkWritable(Protocol protocol, Metadata metadata, String table) {
    checkReadable(protocol, metadata, table);
    int writer = protocol.minWriterVersion();
    if (writer >= 3 && writer <= 6) {
      throw unsupportedWrite(table, "writer version " + writer + ", which obliges writers to enforce "
          + needsOfWriterVersion(writer));
    }
    if (writer > 7 || writer < 1) {
      throw unsupportedWrite(table, "writer version " + writer);
    }
    if (writer == 7) {
      Set<String> missing = new LinkedHashSet<>(protocol.writerFeatures() == null ? List.of() : protocol.writerFeatures());
      missing.removeAll(WRITER_FEATURES);
      if (!missing.isEmpty()) {
        throw unsupportedWrite(table, "writer features " + missing);
      }
    }
    List<String> invariants = columnsWithInvariants(metadata);
    if (!invariants.isEmpty()) {
      throw unsupportedWrite(table, "column invariants (delta.invariants) on " + invariants
          + ", which Sluice does not evaluate");
    }
  }

  /** {@link #checkReadable(Protocol, Metadata, String)} without a table name. */
  public static void checkReadable(Protocol protocol, Metadata metadata) {
    checkReadable(protocol, metadata, "this table");
  }

  /** {@link #checkWritable(Protocol, Metadata, String)} without a table name. */
  public static void checkWritable(Protocol protocol, Metadata metadata) {
    checkWritable(protocol, metadata, "this table");
  }

  private static String needsOfWriterVersion(int writer) {
    List<String> needs = new ArrayList<>(List.of("CHECK constraints"));
    if (writer >= 4) {
      needs.add("generated columns");
    }
    if (writer >= 5) {
      needs.add("column mapping");
    }
    if (writer >= 6) {
      needs.add("identity columns");
    }
    return String.join(", ", needs);
  }

  /** Refuses timestamp_ntz and variant columns, which Sluice cannot map, whatever the protocol declares. */
  private static void checkSchemaTypes(Metadata metadata, String table) {
    if (metadata == null || metadata.schemaString() == null) {
      return;
    }
    JsonNode schema;
    try {
      schema = MAPPER.readTree(metadata.schemaString());
    } catch (JsonProcessingException e) {
      throw new InvalidTableException("The schema of " + table + " is not valid JSON: " + e.getOriginalMessage(), e);
    }
    Set<String> found = new LinkedHashSet<>();
    collectTypeNames(schema, found);
    found.retainAll(Set.of("timestamp_ntz", "variant"));
    if (!found.isEmpty()) {
      throw unsupportedRead(table, "columns of type " + found + " (features 'timestampNtz' / 'variantType')");
    }
  }

  private static void collectTypeNames(JsonNode node, Set<String> out) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      out.add(node.asText());
      return;
    }
    for (String child : List.of("type", "elementType", "keyType", "valueType")) {
      collectTypeNames(node.get(child), out);
    }
    JsonNode fields = node.get("fields");
    if (fields != null) {
      fields.forEach(f -> collectTypeNames(f, out));
    }
  }

  private static List<String> columnsWithInvariants(Metadata metadata) {
    List<String> out = new ArrayList<>();
    if (metadata == null || metadata.schemaString() == null) {
      return out;
    }
    try {
      collectInvariants(MAPPER.readTree(metadata.schemaString()), "", out);
    } catch (JsonProcessingException e) {
      throw new InvalidTableException("The table schema is not valid JSON: " + e.getOriginalMessage(), e);
    }
    return out;
  }

  private static void collectInvariants(JsonNode node, String prefix, List<String> out) {
    if (node == null || !node.isObject()) {
      return;
    }
    JsonNode fields = node.get("fields");
    if (fields != null) {
      for (JsonNode f : fields) {
        String name = prefix + f.path("name").asText();
        JsonNode meta = f.get("metadata");
        if (meta != null && meta.has("delta.invariants")) {
          out.add(name);
        }
        collectInvariants(f.get("type"), name + ".", out);
      }
    }
    for (String child : List.of("elementType", "keyType", "valueType")) {
      collectInvariants(node.get(child), prefix, out);
    }
  }

  private static UnsupportedTableFeatureException unsupportedRead(String table, String what) {
    return new UnsupportedTableFeatureException("Cannot read " + table + ": it requires " + what
        + ", which Sluice does not support. Sluice reads tables at reader version 1 (and reader version 3 with reader"
        + " features deletionVectors and vacuumProtocolCheck). Read it with an engine that supports these features, or"
        + " recreate it without them.");
  }

  private static UnsupportedTableFeatureException unsupportedWrite(String table, String what) {
    return new UnsupportedTableFeatureException("Cannot write to " + table + ": it requires " + what
        + ", which Sluice does not support. Sluice writes tables at writer version 1 or 2, or 7 with only the"
        + " features " + WRITER_FEATURES + ". Write it with an engine that supports these features, or recreate it"
        + " without them.");
  }
}
