package dev.sluice.orchestration.cli;

import java.util.ArrayList;
import java.util.List;

/** A table of text with aligned columns, as the CLI prints it (numbers right-aligned). */
final class TextTable {
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();
  private final boolean[] numeric;

  TextTable(List<String> headers) {
    this.headers = List.copyOf(headers);
    this.numeric = new boolean[headers.size()];
    java.util.Arrays.fill(numeric, true);
  }

  TextTable add(List<String> row) {
    if (row.size() != headers.size()) {
      throw new IllegalArgumentException("A row of " + row.size() + " cells for " + headers.size() + " columns");
    }
    for (int i = 0; i < row.size(); i++) {
      String cell = row.get(i);
      if (!cell.isEmpty() && !cell.equals("-") && !cell.equals("null") && !cell.matches("-?[0-9][0-9,]*(\\.[0-9]+)?(E-?[0-9]+)?")) {
        numeric[i] = false;
      }
    }
    rows.add(List.copyOf(row));
    return this;
  }

  int size() {
    return rows.size();
  }

  /** The table as lines: header, a rule, then the rows. */
  List<String> render() {
    int[] width = new int[headers.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = headers.get(i).length();
      for (List<String> r : rows) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    List<String> out = new ArrayList<>();
    out.add(line(headers, width));
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < width.length; i++) {
      rule.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
    }
    out.add(rule.toString());
    for (List<String> r : rows) {
      out.add(line(r, width));
    }
    return out;
  }

  private String line(List<String> cells, int[] width) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      String pad = " ".repeat(width[i] - c.length());
      sb.append(i == 0 ? "" : "  ").append(numeric[i] ? pad + c : (i == cells.size() - 1 ? c : c + pad));
    }
    return sb.toString();
  }
}
