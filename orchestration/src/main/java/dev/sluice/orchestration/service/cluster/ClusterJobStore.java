package dev.sluice.orchestration.service.cluster;

import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;

/**
 * Quartz's {@link JobStoreTX} with a failure grace of one check-in interval instead of Quartz's fixed 7.5 s: a node
 * silent for about twice the interval is taken for dead, so that a short {@code checkin_interval} gives a prompt
 * failover. Taking a live but slow node for dead is safe here: the runner lease refuses the second runner of a
 * query, and the recovery waits until the first has finished.
 */
public class ClusterJobStore extends JobStoreTX {
  @Override
  protected long calcFailedIfAfter(SchedulerStateRecord rec) {
    // as Quartz: a node that itself checked in late allows the others as long before suspecting them
    return rec.getCheckinTimestamp() + Math.max(rec.getCheckinInterval(), System.currentTimeMillis() - lastCheckin)
        + rec.getCheckinInterval();
  }
}
