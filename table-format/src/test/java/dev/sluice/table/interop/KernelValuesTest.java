package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class KernelValuesTest {

  @Test
  void convertsMicrosSinceEpochToInstants() {
    assertThat(KernelValues.instantOfMicros(1_631_099_471_123_456L)).isEqualTo(Instant.parse("2021-09-08T11:11:11.123456Z"));
    assertThat(KernelValues.instantOfMicros(0L)).isEqualTo(Instant.EPOCH);
  }

  @Test
  void keepsMicrosBeforeTheEpochExact() {
    // -1 µs is 1969-12-31T23:59:59.999999Z, not the epoch minus a whole second.
    assertThat(KernelValues.instantOfMicros(-1L)).isEqualTo(Instant.parse("1969-12-31T23:59:59.999999Z"));
    assertThat(KernelValues.instantOfMicros(-1_500_000L)).isEqualTo(Instant.parse("1969-12-31T23:59:58.500Z"));
  }
}
