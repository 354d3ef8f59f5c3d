package dev.sluice.orchestration.service.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.orchestration.service.RunRecord;
import dev.sluice.orchestration.service.RunStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** The run history in table {@code sluice_runs}, shared by every node of the cluster and read by the CLI. */
final class JdbcRunStore implements RunStore {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int RUNS_LIMIT = 100;
  private static final String COLUMNS = "pipeline, cause, attempt, node, scheduled_for, started_at, ended_at, outcome,"
      + " error, batches, rows_in, ledger";

  private final DataSource dataSource;

  JdbcRunStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public void add(RunRecord r) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement p = c.prepareStatement("INSERT INTO sluice_runs (" + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      p.setString(1, r.pipeline());
      p.setString(2, r.cause().name());
      p.setInt(3, r.attempt());
      p.setString(4, r.node());
      if (r.scheduledFor().isPresent()) {
        p.setTimestamp(5, Timestamp.from(r.scheduledFor().get()));
      } else {
        p.setNull(5, Types.TIMESTAMP_WITH_TIMEZONE);
      }
      p.setTimestamp(6, Timestamp.from(r.start()));
      p.setTimestamp(7, Timestamp.from(r.end()));
      p.setString(8, r.outcome().name());
      p.setString(9, r.error().orElse(null));
      p.setLong(10, r.batches());
      p.setLong(11, r.rows());
      p.setString(12, MAPPER.writeValueAsString(r.ledger()));
      p.executeUpdate();
      commit(c);
    } catch (SQLException | JsonProcessingException e) {
      throw ClusterStoreException.query("record the run of " + r.pipeline(), e);
    }
  }

  @Override
  public List<RunRecord> runs(String pipeline) {
    List<RunRecord> newestFirst = recent(Optional.of(pipeline), RUNS_LIMIT);
    List<RunRecord> out = new ArrayList<>(newestFirst);
    Collections.reverse(out);
    return List.copyOf(out);
  }

  @Override
  public Optional<RunRecord> last(String pipeline) {
    return recent(Optional.of(pipeline), 1).stream().findFirst();
  }

  @Override
  public List<RunRecord> recent(Optional<String> pipeline, int limit) {
    String sql = "SELECT " + COLUMNS + " FROM sluice_runs" + (pipeline.isPresent() ? " WHERE pipeline = ?" : "")
        + " ORDER BY run_id DESC LIMIT ?";
    try (Connection c = dataSource.getConnection(); PreparedStatement p = c.prepareStatement(sql)) {
      int i = 1;
      if (pipeline.isPresent()) {
        p.setString(i++, pipeline.get());
      }
      p.setInt(i, limit);
      List<RunRecord> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(record(rs));
        }
      }
      commit(c);
      return List.copyOf(out);
    } catch (SQLException | JsonProcessingException e) {
      throw ClusterStoreException.query("read the run history", e);
    }
  }

  private static void commit(Connection c) throws SQLException {
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }

  private static RunRecord record(ResultSet rs) throws SQLException, JsonProcessingException {
    Timestamp scheduled = rs.getTimestamp("scheduled_for");
    Map<String, Long> ledger = MAPPER.readValue(rs.getString("ledger"), new TypeReference<LinkedHashMap<String, Long>>() {});
    return new RunRecord(rs.getString("pipeline"), RunRecord.Cause.valueOf(rs.getString("cause")),
        rs.getInt("attempt"), rs.getTimestamp("started_at").toInstant(), rs.getTimestamp("ended_at").toInstant(),
        RunRecord.Outcome.valueOf(rs.getString("outcome")), Optional.ofNullable(rs.getString("error")),
        rs.getLong("batches"), rs.getLong("rows_in"), ledger, rs.getString("node"),
        Optional.ofNullable(scheduled).map(Timestamp::toInstant));
  }
}
