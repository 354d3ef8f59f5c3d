package dev.sluice.ingestion.internal.plan.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.table.DataFile;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticFileJoinTest {
  static final StructType STREAM = StructType.empty().add("code", PrimitiveType.STRING).add("n", PrimitiveType.LONG);
  static final StructType COUNTRIES = StructType.empty().add("code", PrimitiveType.STRING)
      .add("country", PrimitiveType.STRING);

  @TempDir
  Path dir;
  LocalObjectStore store;
  Location folder;

  @BeforeEach
  void files() {
    store = new LocalObjectStore(dir);
    folder = new Location(store, "dims/countries");
    write("dims/countries/part-1.json", "{\"code\":\"fr\",\"country\":\"France\"}\n\n{\"code\":\"de\",\"country\":\"Germany\"}\n");
    write("dims/countries/_ignored/x.json", "{\"code\":\"fr\",\"country\":\"Hidden\"}\n");
    write("dims/countries/.tmp.json", "not json\n");
  }

  private void write(String key, String text) {
    store.overwrite(key, text.getBytes(StandardCharsets.UTF_8));
  }

  private static List<Object[]> apply(Transform join, Row... rows) {
    return join.apply(new Batch(STREAM, List.of(rows)), Transform.BatchInfo.of(0, Instant.EPOCH)).rows().stream()
        .map(Row::toArray).toList();
  }

  @Test
  void jsonLinesFolderIsReadOnceByDefault() {
    StaticJoin join = StaticJoinSpec.on(JoinType.LEFT_OUTER, StaticSide.files(folder, "json", COUNTRIES),
        List.of("code")).bind(STREAM);
    assertThat(join.schema().fieldNames()).containsExactly("code", "n", "countries_code", "country");
    assertThat(apply(join, Row.of("fr", 1L), Row.of("it", 2L))).containsExactly(
        new Object[] {"fr", 1L, "fr", "France"}, new Object[] {"it", 2L, null, null});
    write("dims/countries/part-2.json", "{\"code\":\"it\",\"country\":\"Italy\"}\n");
    assertThat(apply(join, Row.of("it", 3L))).containsExactly(new Object[] {"it", 3L, null, null});
    assertThat(join.lastStaticVersion()).isEmpty();
    assertThat(join.staticDescription()).isEqualTo("json files at " + folder);
  }

  @Test
  void everyBatchRereadsFiles() {
    StaticJoin join = StaticJoinSpec.on(JoinType.INNER, StaticSide.files(folder, "json", COUNTRIES), List.of("code"))
        .withRefresh(RefreshPolicy.EVERY_BATCH).bind(STREAM);
    assertThat(apply(join, Row.of("it", 1L))).isEmpty();
    write("dims/countries/part-2.json", "{\"code\":\"it\",\"country\":\"Italy\"}\n");
    assertThat(apply(join, Row.of("it", 2L))).containsExactly(new Object[] {"it", 2L, "it", "Italy"});
  }

  @Test
  void csvWithHeaderOption() {
    write("dims/rates.csv", "code;rate\nfr;1\nde;2\n");
    StaticSide side = new StaticSide.Files(new Location(store, "dims/rates.csv"), "csv",
        StructType.empty().add("code", PrimitiveType.STRING).add("rate", PrimitiveType.LONG),
        Map.of("header", "true", "delimiter", ";"), "rates");
    StaticJoin join = StaticJoinSpec.on(JoinType.INNER, side, List.of("code")).bind(STREAM);
    assertThat(apply(join, Row.of("de", 7L))).containsExactly(new Object[] {"de", 7L, "de", 2L});
  }

  @Test
  void parquetFileWithSchemaFromItsFooter() {
    Table t = Table.forPath(store, "tables/products");
    t.create(StructType.empty().add("sku", PrimitiveType.LONG).add("title", PrimitiveType.STRING)).commit();
    t.newAppend().rows(List.of(Row.of(1L, "pen"), Row.of(2L, "ink"))).commit();
    DataFile file = t.latestSnapshot().files().get(0);
    StaticJoin join = StaticJoinSpec.on(JoinType.INNER, StaticSide.files(new Location(store, file.key()), "parquet",
        null), List.of("n"), List.of("sku")).bind(STREAM);
    assertThat(join.schema().fieldNames()).containsExactly("code", "n", "sku", "title");
    assertThat(apply(join, Row.of("x", 2L))).containsExactly(new Object[] {"x", 2L, 2L, "ink"});
  }

  @Test
  void malformedStaticRecordFailsNamingFileAndLine() {
    write("dims/countries/part-0.json", "{\"code\":\"es\",\"country\":\"Spain\"}\n{\"code\": \"pt\", \n");
    StaticJoin join = StaticJoinSpec.on(JoinType.INNER, StaticSide.files(folder, "json", COUNTRIES), List.of("code"))
        .bind(STREAM);
    assertThatThrownBy(() -> apply(join, Row.of("es", 1L)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Malformed record in static file " + store.uriOf("dims/countries/part-0.json")
            + ", line 2: ")
        .hasMessageContaining("not valid JSON")
        .hasMessageEndingWith(": fix or remove the record, or fix the declared schema");
  }

  @Test
  void textFilesNeedASchemaAndFormatsAreChecked() {
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.files(folder, "json", null),
        List.of("code")).bind(STREAM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The static side of the join, json files at " + folder + ", needs a schema: declare the schema"
            + " of the json files");
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.files(folder, "avro", COUNTRIES),
        List.of("code")).bind(STREAM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown static file format 'avro': known formats are [csv, json, parquet]; fix the format name");
    StaticSide typo = new StaticSide.Files(folder, "csv", COUNTRIES, Map.of("headr", "true"), "countries");
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, typo, List.of("code")).bind(STREAM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown option 'headr' for source format 'csv'");
  }
}
