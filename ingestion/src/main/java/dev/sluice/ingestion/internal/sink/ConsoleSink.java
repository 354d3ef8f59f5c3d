package dev.sluice.ingestion.internal.sink;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.table.data.Row;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Prints each batch as a readable table (the first {@code numRows} rows), like Spark's console sink. */
public final class ConsoleSink implements Sink {
  private final PrintStream out;
  private final int numRows;
  private final boolean truncate;

  public ConsoleSink(PrintStream out, int numRows, boolean truncate) {
    this.out = out;
    this.numRows = numRows;
    this.truncate = truncate;
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    out.println("-------------------------------------------");
    out.println("Batch: " + batchId);
    out.println("-------------------------------------------");
    out.print(TextTable.render(batch, numRows, truncate));
    return batch.size();
  }

  @Override
  public String description() {
    return "ConsoleSink";
  }

  /** Renders rows as an ASCII table with a header, as Spark's {@code show()}. */
  public static final class TextTable {
    private TextTable() {}

    public static String render(Batch batch, int limit, boolean truncate) {
      List<String> header = batch.schema().fieldNames();
      List<List<String>> cells = new ArrayList<>();
      for (int r = 0; r < Math.min(limit, batch.size()); r++) {
        Row row = batch.rows().get(r);
        List<String> line = new ArrayList<>();
        for (int c = 0; c < header.size(); c++) {
          String v = format(row.get(c));
          line.add(truncate && v.length() > 20 ? v.substring(0, 17) + "..." : v);
        }
        cells.add(line);
      }
      int[] width = new int[header.size()];
      for (int c = 0; c < width.length; c++) {
        width[c] = header.get(c).length();
        for (List<String> line : cells) {
          width[c] = Math.max(width[c], line.get(c).length());
        }
      }
      StringBuilder sb = new StringBuilder();
      String rule = rule(width);
      sb.append(rule).append(line(header, width)).append(rule);
      for (List<String> line : cells) {
        sb.append(line(line, width));
      }
      sb.append(rule);
      if (batch.size() > limit) {
        sb.append("only showing top ").append(limit).append(" rows\n");
      }
      return sb.toString();
    }

    static String format(Object v) {
      if (v == null) {
        return "null";
      }
      if (v instanceof byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
      }
      return String.valueOf(v);
    }

    private static String rule(int[] width) {
      StringBuilder sb = new StringBuilder("+");
      for (int w : width) {
        sb.append("-".repeat(w)).append('+');
      }
      return sb.append('\n').toString();
    }

    private static String line(List<String> values, int[] width) {
      StringBuilder sb = new StringBuilder("|");
      for (int c = 0; c < width.length; c++) {
        sb.append(" ".repeat(width[c] - values.get(c).length())).append(values.get(c)).append('|');
      }
      return sb.append('\n').toString();
    }
  }
}
