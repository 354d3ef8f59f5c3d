package dev.sluice.orchestration.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The token rule and the HOST:PORT syntax of {@code --http}. */
class HttpOptionsTest {
  @Test
  void loopbackNeedsNoToken() {
    for (String address : new String[] {"127.0.0.1:8080", "localhost:0", "[::1]:9000"}) {
      HttpOptions o = HttpOptions.of(address, Optional.empty());
      assertThat(o.loopback()).as(address).isTrue();
      assertThat(o.token()).isEmpty();
    }
    assertThat(HttpOptions.of("[::1]:9000", Optional.empty()).host()).isEqualTo("::1");
  }

  @Test
  void anyOtherBindNeedsAToken() {
    for (String address : new String[] {"0.0.0.0:8080", "[::]:8080"}) {
      assertThatThrownBy(() -> HttpOptions.of(address, Optional.empty()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Refusing to serve the HTTP API on")
          .hasMessageContaining("SLUICE_API_TOKEN")
          .hasMessageContaining("127.0.0.1");
      assertThatThrownBy(() -> HttpOptions.of(address, Optional.of("  ")))
          .as("a blank token is no token").isInstanceOf(IllegalArgumentException.class);
      assertThat(HttpOptions.of(address, Optional.of("s3cret")).token()).contains("s3cret");
    }
  }

  @Test
  void aMalformedAddressSaysWhatToWrite() {
    assertThatThrownBy(() -> HttpOptions.of("8080", Optional.empty())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not HOST:PORT").hasMessageContaining("127.0.0.1:8080");
    assertThatThrownBy(() -> HttpOptions.of("127.0.0.1:http", Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no numeric port");
    assertThatThrownBy(() -> HttpOptions.of("127.0.0.1:70000", Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
  }
}
