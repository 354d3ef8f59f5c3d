package dev.sluice.ingestion.internal.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReplayedRowsTest {
  private static final StructType SCHEMA = StructType.of(StructField.of("id", PrimitiveType.LONG, false));

  private static List<Row> rows(int n) {
    List<Row> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      out.add(Row.of(i));
    }
    return out;
  }

  @Test
  void everyPassReadsTheRowsAgainUntilRandomAccessCopiesThemOnce() {
    AtomicInteger passes = new AtomicInteger();
    ReplayedRows rows = new ReplayedRows(SCHEMA, 5, () -> {
      passes.incrementAndGet();
      return rows(5).iterator();
    });

    assertThat(rows).containsExactlyElementsOf(rows(5));
    assertThat(rows).containsExactlyElementsOf(rows(5));
    assertThat(passes).hasValue(2);
    assertThat(rows.get(3)).isEqualTo(Row.of(3L));
    assertThat(rows.get(1)).isEqualTo(Row.of(1L));
    assertThat(rows).containsExactlyElementsOf(rows(5));
    assertThat(passes).as("one more pass made the copy").hasValue(3);
  }

  @Test
  void aPassThatYieldsAnotherCountThanTheFilesSayFails() {
    ReplayedRows fewer = new ReplayedRows(SCHEMA, 5, () -> rows(4).iterator());
    ReplayedRows more = new ReplayedRows(SCHEMA, 3, () -> rows(4).iterator());

    assertThatThrownBy(() -> new ArrayList<>(fewer)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("yielded 4 rows where the files' record counts say 5");
    assertThatThrownBy(() -> fewer.forEach(r -> { })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> more.forEach(r -> { })).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("more than 4 rows where the files' record counts say 3");
  }

  @Test
  void viewsOverReplayedRowsMapThemWhereThePassMakesThemInOrderWithTheirPositions() {
    java.util.Set<String> mappedOn = java.util.concurrent.ConcurrentHashMap.newKeySet();
    ReplayedRows replayed = new ReplayedRows(SCHEMA, 5_000, (dev.sluice.ingestion.Batch.RowMapper mapper) -> {
      ReadAhead.Blocks blocks = new ReadAhead.Blocks() {
        private long next;

        @Override
        public int next(Row[] into) {
          int n = 0;
          while (n < into.length && next < 5_000) {
            into[n++] = Row.of(next++);
          }
          return n;
        }
      };
      return new ReadAhead(mapper == null ? blocks : blocks.mapped(mapper), 1024, () -> { });
    });
    dev.sluice.ingestion.Batch batch = new dev.sluice.ingestion.Batch(SCHEMA, replayed)
        .map(SCHEMA, (r, position) -> {
          mappedOn.add(Thread.currentThread().getName());
          return Row.of((Long) r.get(0) * 10 + position);
        })
        .map(SCHEMA, (r, position) -> Row.of((Long) r.get(0) + 1));

    List<Row> expected = new ArrayList<>();
    for (long i = 0; i < 5_000; i++) {
      expected.add(Row.of(i * 11 + 1));
    }
    assertThat(batch.rows()).containsExactlyElementsOf(expected);
    assertThat(batch.rows()).as("a second pass").containsExactlyElementsOf(expected);
    assertThat(mappedOn).as("mapped on the pass's own thread, not the reader's")
        .doesNotContain(Thread.currentThread().getName());
    assertThat(batch.rows().get(4_999)).isEqualTo(Row.of(4_999L * 11 + 1));
  }
}
