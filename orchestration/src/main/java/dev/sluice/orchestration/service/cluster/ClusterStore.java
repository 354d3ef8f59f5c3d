package dev.sluice.orchestration.service.cluster;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.config.Secret;
import dev.sluice.config.ServiceConfig;
import dev.sluice.orchestration.service.RunStore;
import dev.sluice.orchestration.service.SchedulerProvider;
import java.sql.SQLException;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * A connection pool on the cluster's PostgreSQL database, with its tables migrated: the Quartz scheduler of a
 * clustered node ({@link #schedulers()}) and the shared run history ({@link #runs()}). The caller closes it after
 * the scheduler has shut down.
 */
public final class ClusterStore implements AutoCloseable {
  private final ServiceConfig config;
  private final HikariDataSource pool;
  private final DataSource dataSource;
  private final JdbcRunStore runs;

  private ClusterStore(ServiceConfig config, HikariDataSource pool, DataSource dataSource) {
    this.config = config;
    this.pool = pool;
    this.dataSource = dataSource;
    this.runs = new JdbcRunStore(dataSource);
  }

  /**
   * Connects to the job store and creates or upgrades its tables.
   *
   * @throws ClusterStoreException when the database cannot be reached or migrated, naming the URL and the cause
   */
  public static ClusterStore open(ServiceConfig config) {
    return open(config, UnaryOperator.identity());
  }

  /** As {@link #open(ServiceConfig)}, with every connection taken through {@code decorate} (e.g. to count statements). */
  public static ClusterStore open(ServiceConfig config, UnaryOperator<DataSource> decorate) {
    HikariDataSource pool = pool(config.jobStore());
    try {
      DataSource ds = decorate.apply(pool);
      Migrations.apply(ds);
      return new ClusterStore(config, pool, ds);
    } catch (SQLException | RuntimeException e) {
      pool.close();
      throw ClusterStoreException.unusable(config.jobStore().url(), e);
    }
  }

  private static HikariDataSource pool(ServiceConfig.JobStore store) {
    HikariConfig h = new HikariConfig();
    h.setJdbcUrl(store.url());
    store.user().ifPresent(h::setUsername);
    store.password().map(Secret::value).ifPresent(h::setPassword);
    h.setMaximumPoolSize(store.poolSize());
    h.setMinimumIdle(Math.min(2, store.poolSize()));
    h.setPoolName("sluice-job-store-" + UUID.randomUUID().toString().substring(0, 8));
    // Quartz's JobStoreTX manages its transactions itself and expects auto-commit off on what it gets
    h.setAutoCommit(false);
    h.setConnectionTimeout(5_000);
    // a start against a database that is down fails in seconds, with the driver's reason
    h.setInitializationFailTimeout(3_000);
    try {
      return new HikariDataSource(h);
    } catch (RuntimeException e) {
      throw ClusterStoreException.unusable(store.url(), e);
    }
  }

  /** Quartz schedulers on this store: every node made with it joins the one cluster. */
  public SchedulerProvider schedulers() {
    return new ClusteredSchedulers(config, dataSource);
  }

  /** The run history every node writes and reads. */
  public RunStore runs() {
    return runs;
  }

  @Override
  public void close() {
    pool.close();
  }
}
