package dev.sluice.ingestion.internal.plan.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.LocalObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticJoinTest {
  static final StructType ORDERS = StructType.empty()
      .add("order_id", PrimitiveType.LONG)
      .add("customer_id", PrimitiveType.INTEGER)
      .add("amount", PrimitiveType.DOUBLE);
  static final StructType CUSTOMERS = StructType.empty()
      .add("id", PrimitiveType.LONG)
      .add("name", PrimitiveType.STRING)
      .add("tier", PrimitiveType.STRING);

  @TempDir
  Path dir;
  Table customers;
  private long batchId;

  @BeforeEach
  void createCustomers() {
    customers = Table.forPath(new LocalObjectStore(dir), "silver/customers");
    customers.create(CUSTOMERS).commit();
    customers.newAppend().rows(List.of(
        Row.of(1L, "ann", "gold"),
        Row.of(2L, "bob", "silver"),
        Row.of(2L, "bob2", "bronze"),
        Row.of(null, "nobody", "none"))).commit();
  }

  private List<Row> apply(Transform join, Row... stream) {
    return join.apply(new Batch(ORDERS, List.of(stream)), Transform.BatchInfo.of(batchId++, Instant.EPOCH)).rows();
  }

  private static Row r(Object... values) {
    return Row.of(values);
  }

  private static List<Object[]> values(List<Row> rows) {
    return rows.stream().map(Row::toArray).toList();
  }

  private StaticJoin join(JoinType type) {
    return StaticJoinSpec.on(type, StaticSide.delta(customers), List.of("customer_id"), List.of("id")).bind(ORDERS);
  }

  @Test
  void innerJoinEmitsEveryMatchAndNullKeysNeverMatch() {
    StaticJoin join = join(JoinType.INNER);
    List<Row> out = apply(join, r(10L, 1, 5.0), r(11L, 2, 6.0), r(12L, 3, 7.0), r(13L, null, 8.0));
    assertThat(values(out)).containsExactly(
        new Object[] {10L, 1, 5.0, 1L, "ann", "gold"},
        new Object[] {11L, 2, 6.0, 2L, "bob", "silver"},
        new Object[] {11L, 2, 6.0, 2L, "bob2", "bronze"});
    assertThat(join.schema().fieldNames()).containsExactly("order_id", "customer_id", "amount", "id", "name", "tier");
    assertThat(join.schema().field("tier").orElseThrow().nullable()).isTrue();
    assertThat(join.lastStaticVersion()).isEqualTo(OptionalLong.of(1));
  }

  @Test
  void leftOuterJoinKeepsUnmatchedStreamRowsWithNulls() {
    StaticJoin join = join(JoinType.LEFT_OUTER);
    List<Row> out = apply(join, r(10L, 1, 5.0), r(12L, 3, 7.0), r(13L, null, 8.0));
    assertThat(values(out)).containsExactly(
        new Object[] {10L, 1, 5.0, 1L, "ann", "gold"},
        new Object[] {12L, 3, 7.0, null, null, null},
        new Object[] {13L, null, 8.0, null, null, null});
    assertThat(join.schema().fields().subList(3, 6)).allMatch(StructField::nullable);
  }

  @Test
  void aLeftJoinOnUniqueKeysGivesTheSameRowsOnEveryPassAndByPosition() {
    Table unique = Table.forPath(new LocalObjectStore(dir), "silver/unique_customers");
    unique.create(CUSTOMERS).commit();
    unique.newAppend().rows(List.of(Row.of(1L, "ann", "gold"), Row.of(2L, "bob", "silver"))).commit();
    StaticJoin join = StaticJoinSpec.on(JoinType.LEFT_OUTER, StaticSide.delta(unique), List.of("customer_id"),
        List.of("id")).bind(ORDERS);
    Batch out = join.apply(new Batch(ORDERS, List.of(r(10L, 1, 5.0), r(11L, 3, 6.0), r(12L, 2, 7.0),
        r(13L, null, 8.0), r(14L, 1, 9.0))), Transform.BatchInfo.of(0, Instant.EPOCH));

    List<Object[]> first = new ArrayList<>();
    out.iterator().forEachRemaining(row -> first.add(row.toArray()));
    List<Object[]> second = new ArrayList<>();
    out.iterator().forEachRemaining(row -> second.add(row.toArray()));
    assertThat(first).containsExactly(
        new Object[] {10L, 1, 5.0, 1L, "ann", "gold"},
        new Object[] {11L, 3, 6.0, null, null, null},
        new Object[] {12L, 2, 7.0, 2L, "bob", "silver"},
        new Object[] {13L, null, 8.0, null, null, null},
        new Object[] {14L, 1, 9.0, 1L, "ann", "gold"});
    assertThat(second).containsExactlyElementsOf(first);
    assertThat(out.rows().get(2).toArray()).isEqualTo(first.get(2));
  }

  @Test
  void extraConditionFiltersMatchesAndLeftOuterFallsBackToNulls() {
    StaticJoin join = StaticJoinSpec.on(JoinType.LEFT_OUTER, StaticSide.delta(customers), List.of("customer_id"),
        List.of("id")).withCondition("tier <> 'bronze' AND amount > 5").bind(ORDERS);
    List<Row> out = apply(join, r(10L, 1, 5.0), r(11L, 2, 6.0));
    assertThat(values(out)).containsExactly(
        new Object[] {10L, 1, 5.0, null, null, null},
        new Object[] {11L, 2, 6.0, 2L, "bob", "silver"});
    assertThat(join.describe()).isEqualTo("StaticJoin[left_outer, delta table " + customers.uri()
        + ", [customer_id] = [id], tier <> 'bronze' AND amount > 5, refresh EVERY_BATCH]");
  }

  @Test
  void clashingStaticColumnsArePrefixedWithTheStaticName() {
    StructType stream = StructType.empty().add("id", PrimitiveType.LONG).add("name", PrimitiveType.STRING);
    StaticJoin join = StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("id")).bind(stream);
    assertThat(join.schema().fieldNames()).containsExactly("id", "name", "customers_id", "customers_name", "tier");
    List<Row> out = join.apply(new Batch(stream, List.of(r(1L, "x"))), Transform.BatchInfo.of(0, Instant.EPOCH)).rows();
    assertThat(values(out)).containsExactly(new Object[] {1L, "x", 1L, "ann", "gold"});
  }

  @Test
  void renamedColumnThatStillClashesIsRefused() {
    StructType stream = StructType.empty().add("id", PrimitiveType.LONG).add("customers_id", PrimitiveType.LONG);
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("id")).bind(stream))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Stream-static join with delta table " + customers.uri() + ": the static column 'id' clashes with"
            + " a stream column, and its renamed form 'customers_id' is taken too; rename one of the columns before"
            + " the join");
  }

  @Test
  void everyBatchRefreshPicksUpANewVersionAndRecordsIt() {
    StaticJoin join = join(JoinType.INNER);
    assertThat(join.lastStaticVersion()).isEmpty();
    assertThat(apply(join, r(12L, 3, 7.0))).isEmpty();
    assertThat(join.lastStaticVersion()).isEqualTo(OptionalLong.of(1));
    customers.newAppend().rows(List.of(Row.of(3L, "cid", "gold"))).commit();
    assertThat(values(apply(join, r(12L, 3, 7.0)))).containsExactly(new Object[] {12L, 3, 7.0, 3L, "cid", "gold"});
    assertThat(join.lastStaticVersion()).isEqualTo(OptionalLong.of(2));
  }

  @Test
  void neverRefreshKeepsTheFirstRead() {
    StaticJoin join = StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("customer_id"),
        List.of("id")).withRefresh(RefreshPolicy.NEVER).bind(ORDERS);
    customers.newAppend().rows(List.of(Row.of(3L, "cid", "gold"))).commit();
    assertThat(values(apply(join, r(12L, 3, 7.0)))).hasSize(1);
    customers.newAppend().rows(List.of(Row.of(4L, "dan", "gold"))).commit();
    assertThat(apply(join, r(13L, 4, 7.0))).isEmpty();
    assertThat(join.lastStaticVersion()).isEqualTo(OptionalLong.of(2));
  }

  @Test
  void addedStaticColumnIsIgnoredUntilRestart() {
    StaticJoin join = join(JoinType.INNER);
    apply(join, r(10L, 1, 5.0));
    customers.newAppend().schema(CUSTOMERS.add("email", PrimitiveType.STRING)).mergeSchema(true)
        .rows(List.of(Row.of(5L, "eve", "gold", "e@x"))).commit();
    assertThat(values(apply(join, r(14L, 5, 1.0)))).containsExactly(new Object[] {14L, 5, 1.0, 5L, "eve", "gold"});
    assertThat(join.lastStaticVersion()).isEqualTo(OptionalLong.of(2));
  }

  @Test
  void droppedStaticColumnUnderARunningJoinIsReported() throws Exception {
    StaticJoin join = join(JoinType.INNER);
    apply(join, r(10L, 1, 5.0));
    commitSchema(StructType.empty().add("id", PrimitiveType.LONG).add("name", PrimitiveType.STRING));
    assertThatThrownBy(() -> apply(join, r(10L, 1, 5.0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The static side of the join, delta table " + customers.uri() + ", changed its column 'tier' at"
            + " version 2 (was string, now dropped): restart the query so that the join binds to the table's new schema");
  }

  /** Commits a metaData action with a new schema, as an engine that drops columns (column mapping) would. */
  private void commitSchema(StructType schema) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    Path log = dir.resolve("silver/customers/_delta_log");
    String metaData = Files.readAllLines(log.resolve("00000000000000000000.json")).stream()
        .filter(l -> l.startsWith("{\"metaData\"")).findFirst().orElseThrow();
    ObjectNode action = (ObjectNode) mapper.readTree(metaData);
    ((ObjectNode) action.get("metaData")).put("schemaString", schema.toJson());
    Files.writeString(log.resolve("00000000000000000002.json"), mapper.writeValueAsString(action) + "\n");
  }

  @Test
  void unknownJoinColumnsAreNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("cust"),
        List.of("id")).bind(ORDERS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Stream-static join: unknown join column 'cust' of the stream; its columns are [order_id,"
            + " customer_id, amount]; fix the column name in the join keys");
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("customer_id"),
        List.of("customer")).bind(ORDERS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Stream-static join: unknown join column 'customer' of the static side (delta table "
            + customers.uri() + "); its columns are [id, name, tier]; fix the column name in the join keys");
  }

  @Test
  void keysMustBeComparableAndPaired() {
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("customer_id"),
        List.of("name")).bind(ORDERS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Stream-static join: key columns 'customer_id' (integer) and 'name' (string) have types that"
            + " can't be compared; cast one of them (e.g. with withColumn) to the other's type");
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("customer_id"),
        List.of("id", "name")).bind(ORDERS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs as many stream key columns as static ones, at least one, but has [customer_id]"
            + " and [id, name]");
  }

  @Test
  void badConditionIsReportedAtBind() {
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(customers), List.of("customer_id"),
        List.of("id")).withCondition("level > 1").bind(ORDERS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("level");
  }

  @Test
  void missingStaticTableIsRefused() {
    Table none = Table.forPath(new LocalObjectStore(dir), "silver/none");
    assertThatThrownBy(() -> StaticJoinSpec.on(JoinType.INNER, StaticSide.delta(none), List.of("id")).bind(ORDERS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The static side of the join, delta table " + none.uri() + ", is not a Delta table (it has no"
            + " commits): create the table first, or fix its path");
  }

  @Test
  void decimalAndIntegralKeysCompareByValue() {
    JoinKeys keys = JoinKeys.resolve(List.of("a"), StructType.empty().add("a", PrimitiveType.STRING), "x");
    assertThat(keys.keyOf(r("k"))).isEqualTo(r("k"));
    JoinKeys any = JoinKeys.resolve(List.of("a"), StructType.empty().add("a", PrimitiveType.LONG), "x");
    assertThat(any.keyOf(r(new java.math.BigDecimal("1.50")))).isEqualTo(any.keyOf(r(new java.math.BigDecimal("1.5"))));
    assertThat(any.keyOf(r((short) 7))).isEqualTo(any.keyOf(r(7L)));
    assertThat(any.keyOf(r(-0.0d))).isEqualTo(any.keyOf(r(0.0d)));
    assertThat(any.keyOf(r((Object) null))).isNull();
  }
}
