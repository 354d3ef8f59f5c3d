package dev.sluice.table.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.table.exceptions.StorageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An S3 endpoint that accepts connections and never answers (loopback only): each attempt ends at the socket
 * timeout, each retry is logged, and the error names the endpoint, the timeout and the option to raise it.
 */
class S3SilentEndpointTest {
  private ServerSocket silent;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(S3ObjectStore.class);
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();

  @BeforeEach
  void start() throws IOException {
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      while (!silent.isClosed()) {
        try {
          accepted.add(silent.accept());
        } catch (IOException closed) {
          return;
        }
      }
    }, "silent-s3");
    acceptor.setDaemon(true);
    acceptor.start();
    events.start();
    logger.addAppender(events);
  }

  @AfterEach
  void stop() throws IOException {
    logger.detachAppender(events);
    silent.close();
    for (Socket s : accepted) {
      s.close();
    }
  }

  @Test
  void aSilentEndpointFailsWithinTheSocketTimeoutNamingEndpointTimeoutAndOption() {
    String endpoint = "http://127.0.0.1:" + silent.getLocalPort();
    Map<String, String> options = Map.of("endpoint", endpoint, "region", "us-east-1", "access-key-id", "k",
        "secret-access-key", "s", "max-attempts", "2", "socket-timeout", "300ms", "attempt-timeout", "5s");

    try (ObjectStore store = ObjectStores.open(URI.create("s3://bucket/wh"), options)) {
      long started = System.nanoTime();
      assertThatThrownBy(() -> store.read("t/_delta_log/00000000000000000000.json"))
          .isInstanceOf(StorageException.class)
          .hasMessageStartingWith("Reading s3://bucket/wh/t/_delta_log/00000000000000000000.json failed: ")
          .hasMessageContaining("(endpoint " + endpoint + ": no answer within socket-timeout 300 ms; check that the"
              + " endpoint is right and reachable, or raise the storage option socket-timeout"
              + " (socket_timeout under storage: in a Sluice config))");
      // two attempts of 300 ms and a backoff; the SDK's defaults would wait minutes
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    assertThat(events.list).filteredOn(e -> e.getLevel() == Level.WARN)
        .extracting(ILoggingEvent::getFormattedMessage)
        .singleElement().asString()
        .startsWith("S3 GetObject of /bucket/wh/t/_delta_log/00000000000000000000.json at " + endpoint
            + ": attempt 1 of 2 failed without an answer (timeouts: connection 5 s, socket 300 ms, attempt 5 s)")
        .endsWith("retrying (attempt 2 of 2)");
  }

  @Test
  void timeoutsHaveShortDefaultsAndOptionsToChangeThem() {
    assertThat(S3Options.of("b", "").timeouts())
        .isEqualTo(new S3Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(60)));
    S3Options set = ObjectStores.s3Options(URI.create("s3://b/p"),
        Map.of("connection-timeout", "2s", "socket-timeout", "1 minute", "attempt-timeout", "90 seconds"));
    assertThat(set.timeouts())
        .isEqualTo(new S3Timeouts(Duration.ofSeconds(2), Duration.ofMinutes(1), Duration.ofSeconds(90)));
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("socket-timeout", "15")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Object store option 'socket-timeout' for s3://b/p has an invalid value '15': expected a duration"
            + " such as 5s, 500ms or 2 minutes");
    assertThatThrownBy(() -> ObjectStores.s3Options(URI.create("s3://b/p"), Map.of("socket-timeout", "0s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("S3 socket timeout must be positive, got PT0S");
  }
}
