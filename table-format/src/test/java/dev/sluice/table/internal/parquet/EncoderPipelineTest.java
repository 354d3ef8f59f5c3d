package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class EncoderPipelineTest {
  @Test
  void encodesEveryRowInOrderByTheTimeItIsDrained() throws Exception {
    List<Object> seen = Collections.synchronizedList(new ArrayList<>());
    EncoderPipeline pipeline = new EncoderPipeline(r -> seen.add(r.get(0)));
    int n = EncoderPipeline.CHUNK_ROWS * (EncoderPipeline.MAX_CHUNKS_IN_FLIGHT + 3) + 17;
    for (int i = 0; i < n; i++) {
      pipeline.add(Row.of(i));
    }
    pipeline.drain();
    assertThat(seen).hasSize(n);
    for (int i = 0; i < n; i++) {
      assertThat(seen.get(i)).isEqualTo(i);
    }
  }

  @Test
  void aFailureOfTheEncoderReachesTheCallerAndLaterRowsAreNotEncoded() throws Exception {
    List<Object> seen = Collections.synchronizedList(new ArrayList<>());
    EncoderPipeline pipeline = new EncoderPipeline(r -> {
      if ((int) r.get(0) == 5) {
        throw new IOException("disk full");
      }
      seen.add(r.get(0));
    });
    assertThatThrownBy(() -> {
      for (int i = 0; i < EncoderPipeline.CHUNK_ROWS * 20; i++) {
        pipeline.add(Row.of(i));
      }
      pipeline.drain();
    }).isInstanceOf(IOException.class).hasMessage("disk full");
    assertThat(seen).containsExactly(0, 1, 2, 3, 4);
    assertThatThrownBy(pipeline::drain).isInstanceOf(IOException.class).hasMessage("disk full");
  }

  @Test
  void tasksRunInTurnAndAFailedOneSkipsTheRest() throws Exception {
    List<Object> seen = Collections.synchronizedList(new ArrayList<>());
    EncoderPipeline pipeline = new EncoderPipeline(r -> seen.add(r.get(0)));
    for (int i = 0; i < EncoderPipeline.MAX_CHUNKS_IN_FLIGHT * 3; i++) {
      int task = i;
      pipeline.submit(() -> seen.add(task));
    }
    pipeline.drain();
    assertThat(seen).hasSize(EncoderPipeline.MAX_CHUNKS_IN_FLIGHT * 3).isSorted();

    seen.clear();
    assertThatThrownBy(() -> {
      for (int i = 0; i < 50; i++) {
        int task = i;
        pipeline.submit(() -> {
          if (task == 2) {
            throw new IOException("disk full");
          }
          seen.add(task);
        });
      }
      pipeline.drain();
    }).isInstanceOf(IOException.class).hasMessage("disk full");
    assertThat(seen).containsExactly(0, 1);
  }
}
