package dev.sluice.table.storage;

import java.time.Duration;
import java.util.Objects;

/**
 * How long an {@link S3ObjectStore} waits for its endpoint before an attempt fails (and is retried, up to
 * {@link S3Options#maxAttempts()}). The defaults are shorter than the AWS SDK's, so an endpoint that accepts
 * connections but never answers fails a call in about a minute with a message saying so, not minutes later.
 *
 * @param connection to open a TCP connection (option {@value ObjectStores#CONNECTION_TIMEOUT})
 * @param socket with no byte received on an open connection (option {@value ObjectStores#SOCKET_TIMEOUT})
 * @param attempt for one whole HTTP attempt, sending and receiving (option {@value ObjectStores#ATTEMPT_TIMEOUT})
 */
public record S3Timeouts(Duration connection, Duration socket, Duration attempt) {
  public static final S3Timeouts DEFAULT =
      new S3Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(60));

  public S3Timeouts {
    check("connection", connection);
    check("socket", socket);
    check("attempt", attempt);
  }

  public S3Timeouts withConnection(Duration value) {
    return new S3Timeouts(value, socket, attempt);
  }

  public S3Timeouts withSocket(Duration value) {
    return new S3Timeouts(connection, value, attempt);
  }

  public S3Timeouts withAttempt(Duration value) {
    return new S3Timeouts(connection, socket, value);
  }

  @Override
  public String toString() {
    return "connection " + text(connection) + ", socket " + text(socket) + ", attempt " + text(attempt);
  }

  /** {@code 1.5 s}, {@code 200 ms}. */
  static String text(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + " ms";
    }
    return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  private static void check(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("S3 " + name + " timeout must be positive, got " + d);
    }
  }
}
