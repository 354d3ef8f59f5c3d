package dev.sluice.ingestion.source.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryStreamTest {
  private static final StructType SCHEMA = StructType.empty().add("id", PrimitiveType.LONG).add("name", PrimitiveType.STRING);

  @TempDir Path tmp;

  @Test
  void batchesStayTheSameAfterMoreDataIsAdded() {
    MemoryStream stream = MemoryStream.create(SCHEMA);
    Source source = stream.source();
    assertThat(source.latestOffset(Optional.empty(), ReadLimit.ALL)).isEmpty();
    SourceOffset first = stream.addData(Row.of(1L, "a"), Row.of(2L, "b"));
    assertThat(first.json()).isEqualTo("{\"offset\":2}");
    assertThat(source.latestOffset(Optional.empty(), ReadLimit.ALL)).contains(first);
    stream.addData(List.of(Row.of(3L, "c")));
    assertThat(source.getBatch(Optional.empty(), first).rows()).containsExactly(Row.of(1L, "a"), Row.of(2L, "b"));
    SourceOffset second = source.latestOffset(Optional.of(first), ReadLimit.ALL).orElseThrow();
    assertThat(source.getBatch(Optional.of(first), second).rows()).containsExactly(Row.of(3L, "c"));
    assertThat(source.latestOffset(Optional.empty(), new ReadLimit(Long.MAX_VALUE, Long.MAX_VALUE, 1)).orElseThrow().json())
        .isEqualTo("{\"offset\":1}");
  }

  @Test
  void formatMemoryFindsTheStreamByName() {
    MemoryStream stream = MemoryStream.named("orders-test", SCHEMA);
    try {
      stream.addData(Row.of(7L, "x"));
      Source source = new MemorySourceProvider().create("memory",
          TestContexts.context(tmp, Map.of("name", "orders-test"), null, null));
      assertThat(source.schema()).isEqualTo(SCHEMA);
      assertThat(source.getBatch(Optional.empty(), source.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow()).rows())
          .containsExactly(Row.of(7L, "x"));
      assertThat(MemoryStream.named("orders-test", SCHEMA)).isSameAs(stream);
    } finally {
      MemoryStream.remove("orders-test");
    }
    assertThatThrownBy(() -> new MemorySourceProvider().create("memory",
        TestContexts.context(tmp, Map.of("name", "orders-test"), null, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("No memory stream named 'orders-test'");
  }

  @Test
  void refusesRowsOfTheWrongWidth() {
    MemoryStream stream = MemoryStream.create(SCHEMA);
    assertThatThrownBy(() -> stream.addData(Row.of(1L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 1 values but memory stream '" + stream.name() + "' has 2 columns [id, name]");
  }

  @Test
  void addDataIsThreadSafe() throws InterruptedException {
    MemoryStream stream = MemoryStream.create(SCHEMA);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread = new Thread(() -> {
        for (int i = 0; i < 500; i++) {
          stream.addData(Row.of((long) i, "v"));
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    Source source = stream.source();
    assertThat(source.getBatch(Optional.empty(), source.latestOffset(Optional.empty(), ReadLimit.ALL).orElseThrow()).size())
        .isEqualTo(2000);
  }
}
