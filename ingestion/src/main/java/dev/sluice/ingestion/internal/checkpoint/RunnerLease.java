package dev.sluice.ingestion.internal.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingestion.Location;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The checkpoint's {@code runner} file: which run of the query is active, refreshed by a heartbeat. A
 * second runner that finds a fresh heartbeat of another run fails at once instead of racing the first
 * one for the next batch; a heartbeat older than the lease timeout belongs to a dead runner (killed,
 * crashed host) and is taken over. The offsets log's put-if-absent stays the last line of defence.
 */
public final class RunnerLease {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Location file;
  private final UUID runId;
  private final Duration timeout;
  private final Clock clock;
  private long lastBeat;

  public RunnerLease(Location checkpoint, UUID runId, Duration timeout, Clock clock) {
    this.file = checkpoint.resolve("runner");
    this.runId = runId;
    this.timeout = timeout;
    this.clock = clock;
  }

  /**
   * @throws QueryAlreadyActiveException when another run's heartbeat is fresher than the lease timeout
   */
  public void acquire(String queryDescription) {
    Instant now = clock.instant();
    try {
      JsonNode held = MAPPER.readTree(file.store().read(file.key()));
      Instant beat = Instant.parse(held.path("heartbeatAt").asText());
      String holder = held.path("runId").asText();
      Duration age = Duration.between(beat, now);
      if (!holder.equals(runId.toString()) && age.compareTo(timeout) < 0) {
        throw new QueryAlreadyActiveException("Query " + queryDescription + " is already running: run " + holder
            + " (" + held.path("host").asText("?") + ") wrote a heartbeat " + age.toMillis() + " ms ago to " + file
            + ". Only one runner of a query may be active. Stop the other runner; if it died, start again after "
            + timeout.toSeconds() + " s (option runnerLeaseTimeout).");
      }
      write(now, false);
    } catch (ObjectNotFoundException absent) {
      write(now, true);
    } catch (IOException | RuntimeException unreadable) {
      if (unreadable instanceof QueryAlreadyActiveException active) {
        throw active;
      }
      write(now, false);
    }
  }

  /** Refreshes the heartbeat when a third of the lease has passed since the last one. */
  public void heartbeat() {
    long now = clock.millis();
    if (now - lastBeat >= timeout.toMillis() / 3) {
      write(clock.instant(), false);
    }
  }

  /** Removes the lease after a clean stop, so that a restart need not wait. */
  public void release() {
    try {
      JsonNode held = MAPPER.readTree(file.store().read(file.key()));
      if (held.path("runId").asText().equals(runId.toString())) {
        file.store().delete(file.key());
      }
    } catch (IOException | RuntimeException ignored) {
      // a lease left behind only delays the next start by the lease timeout
    }
  }

  private void write(Instant now, boolean create) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("runId", runId.toString());
    node.put("host", ProcessHandle.current().pid() + "@" + hostName());
    node.put("heartbeatAt", now.toString());
    byte[] body = node.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    if (create) {
      try {
        file.store().create(file.key(), body);
      } catch (ObjectAlreadyExistsException raced) {
        throw new QueryAlreadyActiveException("Another runner of the query started at the same moment (" + file
            + " appeared). Only one runner of a query may be active.");
      }
    } else {
      file.store().overwrite(file.key(), body);
    }
    lastBeat = now.toEpochMilli();
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown-host";
    }
  }
}
