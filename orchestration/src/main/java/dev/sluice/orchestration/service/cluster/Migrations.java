package dev.sluice.orchestration.service.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Creates and upgrades the cluster store's tables, each change once, in order, recorded in
 * {@code sluice_schema_version}. Nodes starting together take turns through an advisory lock; the whole upgrade is
 * one transaction (PostgreSQL's DDL is transactional), so a failed upgrade leaves the schema as it was.
 */
final class Migrations {
  /** The advisory lock key of Sluice's migrations (any constant other applications are unlikely to use). */
  private static final long LOCK = 0x51_75_69_63_65_00_01L;

  /** One versioned change of the schema. */
  private record Migration(int version, String description, List<String> statements) {}

  private static final List<Migration> MIGRATIONS = List.of(
      new Migration(1, "Quartz 2.5 job store tables (tables_postgres.sql)", quartzTables()),
      new Migration(2, "run history", List.of("""
          CREATE TABLE sluice_runs (
            run_id        BIGSERIAL PRIMARY KEY,
            pipeline      VARCHAR(200) NOT NULL,
            cause         VARCHAR(20)  NOT NULL,
            attempt       INT          NOT NULL,
            node          VARCHAR(200) NOT NULL,
            scheduled_for TIMESTAMPTZ  NULL,
            started_at    TIMESTAMPTZ  NOT NULL,
            ended_at      TIMESTAMPTZ  NOT NULL,
            outcome       VARCHAR(20)  NOT NULL,
            error         TEXT         NULL,
            batches       BIGINT       NOT NULL,
            rows_in       BIGINT       NOT NULL,
            ledger        TEXT         NOT NULL
          )""", "CREATE INDEX sluice_runs_by_pipeline ON sluice_runs (pipeline, run_id)")));

  private Migrations() {}

  static int latest() {
    return MIGRATIONS.get(MIGRATIONS.size() - 1).version();
  }

  /** @throws IllegalStateException when the database was migrated by a newer Sluice */
  static void apply(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
        s.execute("CREATE TABLE IF NOT EXISTS sluice_schema_version (version INT PRIMARY KEY,"
            + " description VARCHAR(200) NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
        int current = current(s);
        if (current > latest()) {
          throw new IllegalStateException("its schema is at version " + current + ", newer than this Sluice knows ("
              + latest() + "); upgrade Sluice on this node to the version the other nodes run");
        }
        for (Migration m : MIGRATIONS) {
          if (m.version() > current) {
            apply(c, s, m);
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  private static int current(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM sluice_schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static void apply(Connection c, Statement s, Migration m) throws SQLException {
    // Quartz's tables may have been made by hand (from the same script) before Sluice managed them
    boolean quartzThere = m.version() == 1 && exists(s, "qrtz_job_details");
    if (!quartzThere) {
      for (String sql : m.statements()) {
        s.execute(sql);
      }
    }
    try (PreparedStatement p = c.prepareStatement(
        "INSERT INTO sluice_schema_version (version, description) VALUES (?, ?)")) {
      p.setInt(1, m.version());
      p.setString(2, m.description());
      p.executeUpdate();
    }
  }

  private static boolean exists(Statement s, String table) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
      rs.next();
      return rs.getBoolean(1);
    }
  }

  /** Quartz's own DDL from its jar, without its DROP statements (they would wipe a cluster's schedules). */
  private static List<String> quartzTables() {
    String script;
    try (InputStream in = org.quartz.Scheduler.class.getResourceAsStream(
        "/org/quartz/impl/jdbcjobstore/tables_postgres.sql")) {
      if (in == null) {
        throw new IllegalStateException("Quartz's tables_postgres.sql is not on the classpath");
      }
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder body = new StringBuilder();
    for (String line : script.split("\n")) {
      if (!line.strip().startsWith("--")) {
        body.append(line).append('\n');
      }
    }
    List<String> out = new ArrayList<>();
    for (String statement : body.toString().split(";")) {
      String sql = statement.strip();
      String upper = sql.toUpperCase(java.util.Locale.ROOT);
      if (!sql.isEmpty() && !upper.startsWith("DROP ") && !upper.equals("COMMIT")) {
        out.add(sql);
      }
    }
    return List.copyOf(out);
  }
}
