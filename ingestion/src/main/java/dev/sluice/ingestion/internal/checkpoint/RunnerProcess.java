package dev.sluice.ingestion.internal.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * Who a runner is, as written in its lease: host, pid and the process's start time. The start time is
 * what makes a pid check safe: after a {@code kill -9} the pid may be reused by an unrelated process,
 * which then started later than the runner did.
 */
final class RunnerProcess {
  private RunnerProcess() {}

  static void describeCurrent(ObjectNode node) {
    ProcessHandle self = ProcessHandle.current();
    node.put("hostName", hostName());
    node.put("pid", self.pid());
    self.info().startInstant().ifPresent(start -> node.put("processStart", start.toString()));
  }

  /**
   * Why the lease's holder is certainly dead, when it ran on this host: no process has its pid, or the
   * process with that pid started at another time. Empty when it may be alive (or ran elsewhere).
   */
  static Optional<String> goneOnThisHost(JsonNode lease) {
    if (!lease.path("hostName").asText("").equals(hostName()) || !lease.path("pid").canConvertToLong()) {
      return Optional.empty();
    }
    long pid = lease.path("pid").asLong();
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      return Optional.of("pid " + pid + " on this host is no longer running");
    }
    Optional<Instant> started = process.get().info().startInstant();
    String recorded = lease.path("processStart").asText("");
    if (started.isPresent() && !recorded.isEmpty() && !sameSecond(started.get(), Instant.parse(recorded))) {
      return Optional.of("pid " + pid + " now belongs to a process started at " + started.get()
          + ", not the runner started at " + recorded);
    }
    return Optional.empty();
  }

  // /proc start times are in clock ticks: compare at a resolution both readings share.
  private static boolean sameSecond(Instant a, Instant b) {
    return Math.abs(a.toEpochMilli() - b.toEpochMilli()) < 1000;
  }

  static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown-host";
    }
  }
}
