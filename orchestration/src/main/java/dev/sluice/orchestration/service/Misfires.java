package dev.sluice.orchestration.service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.quartz.Trigger;
import org.quartz.listeners.TriggerListenerSupport;

/**
 * Counts the misfires of each pipeline's triggers (a fire that came more than the misfire threshold late, e.g.
 * because the previous run still ran), for the service's metrics. Trigger groups are pipeline names
 * ({@link Fires}).
 */
final class Misfires extends TriggerListenerSupport {
  private final Map<String, AtomicLong> byPipeline = new ConcurrentHashMap<>();

  @Override
  public String getName() {
    return "sluice-misfires";
  }

  @Override
  public void triggerMisfired(Trigger trigger) {
    byPipeline.computeIfAbsent(trigger.getKey().getGroup(), k -> new AtomicLong()).incrementAndGet();
  }

  long of(String pipeline) {
    AtomicLong n = byPipeline.get(pipeline);
    return n == null ? 0 : n.get();
  }
}
