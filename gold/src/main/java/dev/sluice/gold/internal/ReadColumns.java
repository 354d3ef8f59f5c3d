package dev.sluice.gold.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.config.DerivedColumn;
import dev.sluice.config.JoinConfig;
import dev.sluice.config.PipelineConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The silver columns a gold query in update or complete mode reads, for the delta source's {@code columns} option:
 * its rows are only aggregated, so a silver column no part of the pipeline names (order ids, lineage) need not be
 * decoded (the 2 M-event medallion's gold decoded 10 columns per change row and used 3). A column is kept when its
 * name occurs anywhere in the text of the join keys, group-by columns, window, measures, derived columns or filter,
 * so a reference is never missed, at the cost of keeping a column whose name is part of another word; a column
 * reference by {@code *} (other than {@code count(*)} and multiplication) keeps them all. A step that still named a
 * column left out would fail when the query starts, never read a null.
 */
final class ReadColumns {
  /** A {@code *} that selects columns: not {@code count(*)}, not a product (an operand before it). */
  private static final Pattern COUNT_STAR = Pattern.compile("(?i)count\\s*\\(\\s*\\*\\s*\\)");
  private static final Pattern STAR_REFERENCE = Pattern.compile("(?m)(^|[(,])\\s*\\*");

  private ReadColumns() {}

  /** The columns of {@code silverColumns} to read, comma-separated; empty when every one is needed. */
  static Optional<String> of(PipelineConfig pipeline, AggregateConfig aggregate, List<String> silverColumns) {
    String text = String.join("\n", texts(pipeline, aggregate)).toLowerCase(Locale.ROOT);
    if (selectsAll(text)) {
      return Optional.empty();
    }
    List<String> read = new ArrayList<>();
    for (String column : silverColumns) {
      if (text.contains(column.toLowerCase(Locale.ROOT))) {
        read.add(column);
      }
    }
    boolean pruned = !read.isEmpty() && read.size() < silverColumns.size();
    return pruned ? Optional.of(String.join(",", read)) : Optional.empty();
  }

  /** Every piece of the pipeline's config that can name a silver column. */
  private static List<String> texts(PipelineConfig pipeline, AggregateConfig aggregate) {
    List<String> out = new ArrayList<>();
    for (JoinConfig j : pipeline.joins()) {
      out.addAll(j.on());
    }
    out.addAll(aggregate.groupBy());
    out.addAll(aggregate.measures());
    aggregate.window().ifPresent(w -> out.add(w.column()));
    aggregate.sessionWindow().ifPresent(w -> {
      out.add(w.column());
      w.gapExpression().ifPresent(out::add);
    });
    aggregate.watermark().ifPresent(w -> out.add(w.column()));
    for (DerivedColumn c : pipeline.columns()) {
      out.add(c.name());
      out.add(c.expr());
    }
    pipeline.filter().ifPresent(out::add);
    return out;
  }

  private static boolean selectsAll(String text) {
    return STAR_REFERENCE.matcher(COUNT_STAR.matcher(text).replaceAll("count()")).find();
  }
}
