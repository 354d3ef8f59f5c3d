package dev.sluice.table.internal.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionFilterTest {
  private static final StructType SCHEMA = StructType.empty()
      .add("amount", PrimitiveType.LONG)
      .add("note", PrimitiveType.STRING)
      .add("day", PrimitiveType.DATE)
      .add("region", PrimitiveType.STRING);
  private static final List<String> PARTITIONS = List.of("day", "region");

  @Test
  void matchesFilesByTheirPartitionValues() {
    PartitionFilter f = PartitionFilter.of(
        Predicate.and(Predicate.ge("DAY", "2021-09-08"), Predicate.in("region", List.of("eu", "us"))),
        SCHEMA, PARTITIONS, "Overwrite");
    assertThat(f.matches(Map.of("day", "2021-09-08", "region", "eu"))).isTrue();
    assertThat(f.matches(Map.of("day", "2021-09-07", "region", "eu"))).isFalse();
    assertThat(f.matches(Map.of("day", "2021-09-09", "region", "ap"))).isFalse();
    Map<String, String> nullRegion = new HashMap<>();
    nullRegion.put("day", "2021-09-09");
    nullRegion.put("region", null);
    assertThat(f.matches(nullRegion)).isFalse();
    assertThat(f.bound().predicate())
        .isEqualTo(Predicate.and(Predicate.ge("day", LocalDate.of(2021, 9, 8)), Predicate.in("region", List.of("eu", "us"))));
  }

  @Test
  void refusesDataColumnsNamingThemAndTheFix() {
    Predicate p = Predicate.and(Predicate.eq("day", "2021-09-08"), Predicate.gt("amount", 5));
    assertThatThrownBy(() -> PartitionFilter.of(p, SCHEMA, PARTITIONS, "Overwrite"))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessage("Overwrite with predicate `day = '2021-09-08' AND amount > 5` needs a predicate on partition "
            + "columns only, but [amount] is not a partition column (partition columns: [day, region]). Restrict "
            + "the predicate to partition columns, or use a row-level DELETE for conditions on data columns.");
    assertThatThrownBy(() -> PartitionFilter.of(
            Predicate.or(Predicate.isNull("note"), Predicate.gt("amount", 5)), SCHEMA, List.of(), "Delete"))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("[note, amount] are not partition columns (partition columns: [])");
  }

  @Test
  void constantPredicatesNeedNoPartitionColumns() {
    PartitionFilter all = PartitionFilter.of(Predicate.alwaysTrue(), SCHEMA, List.of(), "Overwrite");
    assertThat(all.matches(Map.of())).isTrue();
  }
}
