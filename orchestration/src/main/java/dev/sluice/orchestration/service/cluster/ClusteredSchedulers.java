package dev.sluice.orchestration.service.cluster;

import dev.sluice.config.ServiceConfig;
import dev.sluice.orchestration.service.SchedulerProvider;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.UUID;
import javax.sql.DataSource;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.SchedulerRepository;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;

/**
 * Quartz schedulers on the cluster store: {@code JobStoreTX} (as {@link ClusterJobStore}) with the PostgreSQL
 * delegate, {@code isClustered}, the config's instance id and check-in interval, on the store's connection pool.
 */
final class ClusteredSchedulers implements SchedulerProvider {
  /** Every node of a cluster shares the scheduler name; Quartz keys the tables' rows by it. */
  static final String CLUSTER_NAME = "sluice";

  private final ServiceConfig config;
  private final DataSource dataSource;

  ClusteredSchedulers(ServiceConfig config, DataSource dataSource) {
    this.config = config;
    this.dataSource = dataSource;
  }

  @Override
  public Scheduler create(String instanceName, int threads) throws SchedulerException {
    // DBConnectionManager is global to the JVM: one data-source name per node
    String source = "sluice-" + UUID.randomUUID();
    DBConnectionManager.getInstance().addConnectionProvider(source, new PoolProvider(dataSource));
    long checkin = config.checkinInterval().duration().toMillis();
    Properties p = new Properties();
    p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, CLUSTER_NAME);
    p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_ID, config.instanceId().orElse(
        StdSchedulerFactory.AUTO_GENERATE_INSTANCE_ID));
    p.setProperty(StdSchedulerFactory.PROP_JOB_STORE_CLASS, ClusterJobStore.class.getName());
    p.setProperty("org.quartz.jobStore.driverDelegateClass", PostgreSQLDelegate.class.getName());
    p.setProperty("org.quartz.jobStore.dataSource", source);
    p.setProperty("org.quartz.jobStore.isClustered", "true");
    p.setProperty("org.quartz.jobStore.clusterCheckinInterval", Long.toString(checkin));
    // job data as strings, readable in the tables (the service's job data holds only strings)
    p.setProperty("org.quartz.jobStore.useProperties", "true");
    // Triggers another node adds are seen when this node next looks: Quartz's 30 s default would delay them.
    p.setProperty("org.quartz.scheduler.idleWaitTime", Long.toString(Math.min(1000, Math.max(100, checkin))));
    p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", Integer.toString(threads));
    p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
    Scheduler scheduler = SchedulerProvider.withProperties(p).create(CLUSTER_NAME, threads);
    // The repository is global to the JVM and keyed by name, which all nodes share: keep it from handing this
    // node to the next one created in the same JVM.
    SchedulerRepository.getInstance().remove(CLUSTER_NAME);
    return scheduler;
  }

  /** The store's pool as Quartz's connection provider; the store, not Quartz, closes the pool. */
  private record PoolProvider(DataSource dataSource) implements ConnectionProvider {
    @Override
    public Connection getConnection() throws SQLException {
      return dataSource.getConnection();
    }

    @Override
    public void shutdown() {}

    @Override
    public void initialize() {}
  }
}
