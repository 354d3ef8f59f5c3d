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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint's {@code runner} file: which run of the query is active, refreshed by a heartbeat. A
 * second runner that finds a fresh heartbeat of another run fails at once (or, with a wait, waits for it)
 * instead of racing the first one for the next batch; a heartbeat older than the lease timeout belongs to a
 * dead runner (killed, crashed host) and is taken over. A holder on this host is checked at once: the lease
 * names its pid and the process's start time, so a runner killed with {@code kill -9} (no such process, or
 * the pid now belongs to a process started later) is taken over without waiting for its heartbeat to age.
 * The offsets log's put-if-absent stays the last line of defence.
 */
public final class RunnerLease {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(RunnerLease.class);

  private final Location file;
  private final UUID runId;
  private final Duration timeout;
  private final Duration wait;
  private final Clock clock;
  private long lastBeat;

  public RunnerLease(Location checkpoint, UUID runId, Duration timeout, Clock clock) {
    this(checkpoint, runId, timeout, Duration.ZERO, clock);
  }

  /** With {@code wait} above zero, {@link #acquire} waits up to that long for a live holder to finish. */
  public RunnerLease(Location checkpoint, UUID runId, Duration timeout, Duration wait, Clock clock) {
    this.file = checkpoint.resolve("runner");
    this.runId = runId;
    this.timeout = timeout;
    this.wait = wait;
    this.clock = clock;
  }

  /**
   * @throws QueryAlreadyActiveException when another live run holds the lease (after the wait, if any)
   */
  public void acquire(String queryDescription) {
    long deadline = System.nanoTime() + wait.toNanos();
    boolean announced = false;
    while (true) {
      Optional<String> busy = tryAcquire(queryDescription);
      if (busy.isEmpty()) {
        return;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new QueryAlreadyActiveException(busy.get() + (wait.isZero()
            ? " To wait for it instead, use option runnerLeaseWait (sluice run --wait)."
            : " Waited " + wait.toSeconds() + " s (runnerLeaseWait)."));
      }
      if (!announced) {
        LOG.warn("{} Waiting up to {} s for it (runnerLeaseWait).", busy.get(), wait.toSeconds());
        announced = true;
      }
      sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, Math.min(500, Math.max(50, timeout.toMillis() / 10))));
    }
  }

  /** Takes the lease, or says who holds it. */
  private Optional<String> tryAcquire(String queryDescription) {
    Instant now = clock.instant();
    JsonNode held;
    try {
      held = MAPPER.readTree(file.store().read(file.key()));
    } catch (ObjectNotFoundException absent) {
      write(now, true);
      return Optional.empty();
    } catch (IOException | RuntimeException unreadable) {
      write(now, false);
      return Optional.empty();
    }
    String holder = held.path("runId").asText();
    Instant beat;
    try {
      beat = Instant.parse(held.path("heartbeatAt").asText());
    } catch (RuntimeException unreadable) {
      beat = Instant.EPOCH;
    }
    Duration age = Duration.between(beat, now);
    if (!holder.equals(runId.toString()) && age.compareTo(timeout) < 0) {
      Optional<String> gone = RunnerProcess.goneOnThisHost(held);
      if (gone.isEmpty()) {
        return Optional.of("Query " + queryDescription + " is already running: run " + holder + " ("
            + held.path("host").asText("?") + ") wrote a heartbeat " + age.toMillis() + " ms ago to " + file
            + ". Only one runner of a query may be active. Stop the other runner; if it died on another host,"
            + " start again after " + timeout.toSeconds() + " s (option runnerLeaseTimeout).");
      }
      LOG.info("Taking over the runner lease of query {}: its holder {}", queryDescription, gone.get());
    }
    write(now, false);
    return Optional.empty();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryAlreadyActiveException("Interrupted while waiting for the runner lease");
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
    node.put("host", ProcessHandle.current().pid() + "@" + RunnerProcess.hostName());
    RunnerProcess.describeCurrent(node);
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
}
