package dev.sluice.config;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/** How to reach an S3 warehouse: endpoint, region, path-style access and credentials from the environment. */
public record StorageConfig(
    Optional<URI> endpoint,
    Optional<String> region,
    boolean pathStyle,
    Optional<Secret> accessKeyId,
    Optional<Secret> secretAccessKey,
    Optional<Secret> sessionToken) {
  public StorageConfig {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(sessionToken, "sessionToken");
  }

  /** No settings: the AWS SDK's default endpoint, region and credential chain. */
  public static StorageConfig none() {
    return new StorageConfig(Optional.empty(), Optional.empty(), false, Optional.empty(), Optional.empty(),
        Optional.empty());
  }
}
