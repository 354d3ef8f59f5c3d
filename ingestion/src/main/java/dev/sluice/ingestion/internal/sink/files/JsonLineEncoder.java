package dev.sluice.ingestion.internal.sink.files;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * One JSON object per row, as Spark's json sink writes them: null fields left out, binary as base64, dates and
 * timestamps as ISO-8601 strings (timestamps in UTC with their microseconds), structs, arrays and maps nested.
 */
final class JsonLineEncoder implements TextOutputFormat.LineEncoder {
  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  @Override
  public String header(StructType schema) {
    return "";
  }

  @Override
  public void encode(Row row, StructType schema, Writer out) throws IOException {
    JsonGenerator g = FACTORY.createGenerator(out);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    struct(g, row, schema);
    g.flush();
  }

  private static void struct(JsonGenerator g, Row row, StructType schema) throws IOException {
    g.writeStartObject();
    for (int i = 0; i < schema.size(); i++) {
      Object v = row.get(i);
      if (v != null) {
        g.writeFieldName(schema.field(i).name());
        value(g, v, schema.field(i).type());
      }
    }
    g.writeEndObject();
  }

  private static void value(JsonGenerator g, Object v, DataType type) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Row r && type instanceof StructType s) {
      struct(g, r, s);
    } else if (v instanceof List<?> list && type instanceof ArrayType a) {
      g.writeStartArray();
      for (Object e : list) {
        value(g, e, a.elementType());
      }
      g.writeEndArray();
    } else if (v instanceof Map<?, ?> map && type instanceof MapType m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        value(g, e.getValue(), m.valueType());
      }
      g.writeEndObject();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Double d) {
      g.writeNumber(d);
    } else if (v instanceof Float f) {
      g.writeNumber(f);
    } else if (v instanceof BigDecimal d) {
      g.writeNumber(d);
    } else if (v instanceof byte[] b) {
      g.writeBinary(b);
    } else {
      // dates (LocalDate) and timestamps (Instant) print as ISO-8601
      g.writeString(v.toString());
    }
  }
}
