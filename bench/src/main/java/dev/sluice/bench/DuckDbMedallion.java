package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The DuckDB reference of the medallion benchmark: {@code spark-baseline/duckdb/medallion.sql} (bronze, silver,
 * gold as three COPY statements) through DuckDB's JDBC driver, in-memory database. Run as its own JVM by
 * {@link MedallionCommand} so that its process CPU and peak RSS are measured like the other engines';
 * prints one JSON object: the time of each statement and of all SQL, and the rows of each output.
 *
 * <p>Usage: {@code DuckDbMedallion DATA_DIR OUT_DIR SQL_FILE} (the shared baseline's file, never a copy of it).
 */
public final class DuckDbMedallion {
  private static final String[] LAYERS = {"bronze", "silver", "gold"};

  private DuckDbMedallion() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: DuckDbMedallion DATA_DIR OUT_DIR SQL_FILE");
      System.exit(2);
    }
    Path data = Path.of(args[0]).toAbsolutePath();
    Path out = Path.of(args[1]).toAbsolutePath();
    String sql = Files.readString(Path.of(args[2]));
    Files.createDirectories(out);
    System.out.println(new ObjectMapper().writeValueAsString(run(sql, data, out)));
  }

  static Map<String, Object> run(String sql, Path data, Path out) throws SQLException {
    Map<String, Object> result = new LinkedHashMap<>();
    List<String> statements = statements(sql.replace("'DATA/", "'" + data + "/").replace("'OUT/", "'" + out + "/"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
      long t0 = System.nanoTime();
      int copy = 0;
      for (String statement : statements) {
        long s0 = System.nanoTime();
        s.execute(statement);
        if (statement.regionMatches(true, 0, "COPY", 0, 4) && copy < LAYERS.length) {
          result.put(LAYERS[copy++] + "_ms", (System.nanoTime() - s0) / 1_000_000);
        }
      }
      result.put("sql_ms", (System.nanoTime() - t0) / 1_000_000);
      for (String layer : LAYERS) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM read_parquet('" + out.resolve(layer + ".parquet") + "')")) {
          rs.next();
          result.put(layer + "_rows", rs.getLong(1));
        }
      }
    }
    return result;
  }

  /** The statements of a SQL script: {@code --} comment lines dropped, split at the {@code ;} ending a line. */
  static List<String> statements(String sql) {
    StringBuilder current = new StringBuilder();
    List<String> out = new ArrayList<>();
    for (String line : sql.split("\n")) {
      if (line.strip().startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (line.strip().endsWith(";")) {
        String st = current.toString().strip();
        out.add(st.substring(0, st.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }
}
