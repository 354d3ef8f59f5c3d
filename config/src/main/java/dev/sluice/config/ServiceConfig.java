package dev.sluice.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The {@code service:} section: where {@code sluice serve} nodes keep their shared schedule and run history. With
 * it, every node on the same {@link JobStore} is one Quartz cluster; without it the service keeps its schedule in
 * memory (one node).
 *
 * @param instanceId this node's name in the cluster (unique per node); empty for Quartz's generated
 *     {@code <host><timestamp>}
 * @param checkinInterval how often a node tells the others it is alive; a node silent for about twice as long is
 *     taken for dead and its running pipelines are fired on another node
 */
public record ServiceConfig(JobStore jobStore, Optional<String> instanceId, Interval checkinInterval) {
  /** The default {@code checkin_interval}: Quartz's own default. */
  public static final String DEFAULT_CHECKIN_INTERVAL = "7500 ms";

  /**
   * The PostgreSQL database of the cluster.
   *
   * @param url a {@code jdbc:postgresql://host:port/database} URL
   * @param password from the environment only (never written in the file)
   * @param poolSize the most connections this node opens
   */
  public record JobStore(String url, Optional<String> user, Optional<Secret> password, int poolSize) {
    public static final int DEFAULT_POOL_SIZE = 8;

    public JobStore {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (poolSize < 2) {
        throw new IllegalArgumentException("The job store pool needs at least 2 connections, got " + poolSize);
      }
    }

    @Override
    public String toString() {
      return "JobStore[" + url + ", user=" + user.orElse("-") + ", password=" + password.map(Secret::toString)
          .orElse("-") + ", poolSize=" + poolSize + "]";
    }
  }

  public ServiceConfig {
    Objects.requireNonNull(jobStore, "jobStore");
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(checkinInterval, "checkinInterval");
  }
}
