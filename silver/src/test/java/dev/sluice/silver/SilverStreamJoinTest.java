package dev.sluice.silver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code join_stream}: two bronze tables read as streams, joined within a time bound, MERGEd into silver. */
class SilverStreamJoinTest {
  private static final StructType IMPS = StructType.empty().add("ad_id", PrimitiveType.STRING)
      .add("imp_ts", PrimitiveType.TIMESTAMP).add("imp_id", PrimitiveType.LONG).add("_batch_id", PrimitiveType.LONG);
  private static final StructType CLICKS = StructType.empty().add("ad_id", PrimitiveType.STRING)
      .add("click_ts", PrimitiveType.TIMESTAMP).add("click_id", PrimitiveType.LONG)
      .add("_batch_id", PrimitiveType.LONG);

  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
  }

  private static Row row(String ad, String time, long id) {
    return Row.of(ad, Instant.parse("2026-03-01T" + time + ":00Z"), id, 0L);
  }

  private void append(String table, StructType schema, Row... rows) {
    Table t = session.table(dir.resolve(table).toString());
    if (!t.exists()) {
      t.create(schema).commit();
    }
    t.newAppend().schema(schema).rows(List.of(rows)).commit();
  }

  private void run(String type, String mergeKeys) {
    SluiceConfig config = ConfigLoader.parse("warehouse: " + dir.toUri() + "\n"
        + "pipelines:\n"
        + "  - name: ad_clicks\n"
        + "    layer: silver\n"
        + "    source: {table: bronze/imps}\n"
        + "    join_stream:\n"
        + "      table: bronze/clicks\n"
        + "      keys: [ad_id]\n"
        + "      type: " + type + "\n"
        + "      within: 10 minutes\n"
        + "      left_watermark: {column: imp_ts, delay: 10 minutes}\n"
        + "      right_watermark: {column: click_ts, delay: 10 minutes}\n"
        + "    sink: {table: silver/ad_clicks, merge: {keys: " + mergeKeys + "}}\n", "test.yaml", Map.of());
    StreamingQuery q = SilverPipeline.start(session, config, config.pipeline("ad_clicks").orElseThrow(),
        Trigger.availableNow());
    q.awaitTermination();
  }

  private List<String> pairs() {
    return SilverFixture.rows(session.table(dir.resolve("silver/ad_clicks").toString())).stream()
        .map(m -> m.get("ad_id") + ":" + m.get("imp_id") + "-" + m.get("click_id")).sorted().toList();
  }

  @Test
  void anInnerJoinAcrossRunsWritesEveryPairWithinTheBoundOnce() {
    append("bronze/imps", IMPS, row("a", "10:00", 1), row("b", "10:01", 2), row("c", "10:02", 3));
    append("bronze/clicks", CLICKS, row("a", "10:03", 11), row("a", "10:20", 12), row("b", "10:05", 13));
    run("inner", "[imp_id, click_id]");
    append("bronze/imps", IMPS, row("a", "10:06", 4));
    append("bronze/clicks", CLICKS, row("a", "10:08", 14));
    run("inner", "[imp_id, click_id]");

    assertThat(pairs()).containsExactly("a:1-11", "a:1-14", "a:4-14", "b:2-13");
    StructType silver = session.table(dir.resolve("silver/ad_clicks").toString()).latestSnapshot().schema();
    assertThat(silver.fieldNames()).as("the right side's clashing lineage column is renamed")
        .containsExactly("ad_id", "imp_ts", "imp_id", "_batch_id", "click_ts", "click_id", "_batch_id_right");
  }

  @Test
  void aLeftOuterJoinWritesAnUnmatchedImpressionOnceTheWatermarksPassItsBound() {
    append("bronze/imps", IMPS, row("a", "10:00", 1), row("c", "10:02", 2));
    append("bronze/clicks", CLICKS, row("a", "10:03", 11));
    run("left_outer", "[imp_id]");
    assertThat(pairs()).containsExactly("a:1-11");

    append("bronze/imps", IMPS, row("z", "12:00", 9));
    append("bronze/clicks", CLICKS, row("y", "12:00", 19));
    run("left_outer", "[imp_id]");
    assertThat(pairs()).containsExactly("a:1-11", "c:2-null");
  }
}
