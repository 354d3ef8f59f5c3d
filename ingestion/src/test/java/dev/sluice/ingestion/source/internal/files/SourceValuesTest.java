package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.internal.TestContexts;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values that a declared timestamp or decimal column can't hold exactly (epoch milliseconds read as seconds,
 * more decimal places than the scale, more digits than the precision) are kept as they were, never rounded or
 * turned into a wild date: rescued with {@code rescuedDataColumn}, else the record is corrupt.
 */
class SourceValuesTest {
  static final StructType ORDERS = StructType.empty().add("id", PrimitiveType.STRING)
      .add("event_time", PrimitiveType.TIMESTAMP).add("amount", DecimalType.of(10, 2));

  @TempDir Path tmp;
  Path in;

  @BeforeEach
  void setUp() throws IOException {
    in = Files.createDirectories(tmp.resolve("in"));
  }

  List<Row> read(String format, Map<String, String> options, String text) throws IOException {
    Files.writeString(in.resolve("o." + format), text);
    Source s = new FileSourceProvider().create(format, TestContexts.context(tmp, FileFormatsTest.settled(options),
        FileFormatsTest.declaringCorrupt(ORDERS), in));
    Batch batch = FileFormatsTest.all(s);
    int[] at = {batch.schema().indexOf("id"), batch.schema().indexOf("event_time"), batch.schema().indexOf("amount"),
        batch.schema().indexOf("_rescued_data"), batch.schema().indexOf("_corrupt_error")};
    return batch.rows().stream().map(r -> {
      Object[] v = new Object[at.length];
      for (int i = 0; i < at.length; i++) {
        v[i] = at[i] < 0 ? null : r.get(at[i]);
      }
      return Row.of(v);
    }).toList();
  }

  @Test
  void aJsonNumberIsEpochSecondsAndOneOutsideTheRangeIsRescuedNotAWildDate() throws IOException {
    List<Row> rows = read("json", Map.of("rescuedDataColumn", "_rescued_data"),
        "{\"id\":\"a\",\"event_time\":1704101640,\"amount\":1.5}\n"
            + "{\"id\":\"b\",\"event_time\":1704101640000,\"amount\":1.5}\n"
            + "{\"id\":\"c\",\"event_time\":\"+55970-01-01T00:00:00Z\",\"amount\":1.5}\n");
    assertThat(rows).containsExactly(
        Row.of("a", Instant.parse("2024-01-01T09:34:00Z"), new BigDecimal("1.50"), null, null),
        Row.of("b", null, new BigDecimal("1.50"), "{\"event_time\":1704101640000}", null),
        Row.of("c", null, new BigDecimal("1.50"), "{\"event_time\":\"+55970-01-01T00:00:00Z\"}", null));
  }

  @Test
  void withoutRescueAnEpochMillisecondNumberMakesTheRecordCorruptWithTheFix() throws IOException {
    List<Row> rows = read("json", Map.of(), "{\"id\":\"b\",\"event_time\":1704101640000}\n");
    assertThat(rows.get(0).get(1)).isNull();
    assertThat(rows.get(0).get(4)).isEqualTo("line 1: field 'event_time': cannot read '1704101640000' as timestamp"
        + " (a number is read as epoch seconds, and this one is outside the supported range 0001-01-01 to 9999-12-31;"
        + " if it holds epoch milliseconds or microseconds, declare the field as long and convert it with"
        + " timestamp_millis(...) or timestamp_micros(...))");
  }

  @Test
  void digitsInCsvAreNoTimestamp() throws IOException {
    List<Row> rows = read("csv", Map.of("rescuedDataColumn", "_rescued_data"), "a,1704101640000,1.5\n");
    assertThat(rows).containsExactly(Row.of("a", null, new BigDecimal("1.50"), "{\"event_time\":\"1704101640000\"}",
        null));
  }

  @Test
  void decimalsAreNeverRoundedInSilence() throws IOException {
    List<Row> rows = read("json", Map.of("rescuedDataColumn", "_rescued_data"),
        "{\"id\":\"exact\",\"amount\":12.340}\n"
            + "{\"id\":\"scale\",\"amount\":12.34567}\n"
            + "{\"id\":\"text\",\"amount\":\"0.005\"}\n"
            + "{\"id\":\"precision\",\"amount\":123456789.12}\n");
    assertThat(rows).containsExactly(
        Row.of("exact", null, new BigDecimal("12.34"), null, null),
        Row.of("scale", null, null, "{\"amount\":12.34567}", null),
        Row.of("text", null, null, "{\"amount\":\"0.005\"}", null),
        Row.of("precision", null, null, "{\"amount\":123456789.12}", null));
  }

  @Test
  void withoutRescueTooManyDecimalPlacesMakeTheRecordCorrupt() throws IOException {
    List<Row> rows = read("csv", Map.of(), "a,,12.34567\nb,,123456789.12\n");
    assertThat(rows.get(0).get(4)).isEqualTo("line 1: field 'amount': cannot read '12.34567' as decimal(10,2) (more"
        + " than 2 decimal places; rounding would lose digits. Widen the scale, or read the field as a string and"
        + " CAST it where rounding is wanted)");
    assertThat(rows.get(1).get(4))
        .isEqualTo("line 2: field 'amount': cannot read '123456789.12' as decimal(10,2) (more than 10 digits)");
  }
}
