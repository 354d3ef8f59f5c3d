package dev.sluice.config;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach an S3 warehouse: endpoint, region, path-style access, credentials from the environment, and how
 * long to wait for the endpoint (each timeout empty for the engine's default).
 */
public record StorageConfig(
    Optional<URI> endpoint,
    Optional<String> region,
    boolean pathStyle,
    Optional<Secret> accessKeyId,
    Optional<Secret> secretAccessKey,
    Optional<Secret> sessionToken,
    Timeouts timeouts) {
  /** {@code connection_timeout}, {@code socket_timeout} and {@code attempt_timeout}; see the table format's S3Timeouts. */
  public record Timeouts(Optional<Interval> connection, Optional<Interval> socket, Optional<Interval> attempt) {
    public static final Timeouts DEFAULT = new Timeouts(Optional.empty(), Optional.empty(), Optional.empty());

    public Timeouts {
      Objects.requireNonNull(connection, "connection");
      Objects.requireNonNull(socket, "socket");
      Objects.requireNonNull(attempt, "attempt");
    }
  }

  public StorageConfig {
    Objects.requireNonNull(timeouts, "timeouts");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(sessionToken, "sessionToken");
  }

  /** No settings: the AWS SDK's default endpoint, region and credential chain. */
  public static StorageConfig none() {
    return new StorageConfig(Optional.empty(), Optional.empty(), false, Optional.empty(), Optional.empty(),
        Optional.empty(), Timeouts.DEFAULT);
  }
}
