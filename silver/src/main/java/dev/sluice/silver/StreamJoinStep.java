package dev.sluice.silver;

import dev.sluice.config.StreamJoinConfig;
import dev.sluice.config.WatermarkConfig;
import dev.sluice.ingestion.StreamFrame;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code join_stream} step: the pipeline's source (left, alias {@code l}) joined with the right table's stream
 * (alias {@code r}) by the engine's stream-stream join on the keys, bounded by {@code within} or
 * {@code time_condition}. A right column (not a key) named like a left one is renamed {@code <name>_right} first
 * (bronze tables share their lineage columns), and its watermark then applies to the renamed column.
 */
final class StreamJoinStep {
  static final String SUFFIX = "_right";

  private final StreamJoinConfig join;
  private final StructType left;
  private final StructType right;
  private final Set<String> keys;

  StreamJoinStep(StreamJoinConfig join, StructType left, StructType right) {
    this.join = join;
    this.left = left;
    this.right = right;
    this.keys = join.keys().stream().map(k -> k.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    for (String k : join.keys()) {
      for (StructType side : List.of(left, right)) {
        if (side.indexOf(k) < 0) {
          throw new IllegalArgumentException("join_stream.keys: `" + k + "` is not a column of the "
              + (side == left ? "source" : "joined") + " table, whose columns are " + side.fieldNames()
              + "; the keys are named alike on both sides");
        }
      }
    }
  }

  /** A right column's name after the join's renaming. */
  String rightName(String column) {
    return clashes(column) ? column + SUFFIX : column;
  }

  private boolean clashes(String column) {
    return !keys.contains(column.toLowerCase(Locale.ROOT)) && left.indexOf(column) >= 0;
  }

  StreamFrame apply(StreamFrame leftStream, StreamFrame rightStream) {
    StreamFrame l = leftStream;
    if (join.leftWatermark().isPresent()) {
      l = l.withWatermark(join.leftWatermark().get().column(), join.leftWatermark().get().delay().text());
    }
    List<String> projection = new ArrayList<>();
    for (StructField f : right.fields()) {
      projection.add("`" + f.name() + "` AS `" + rightName(f.name()) + "`");
    }
    StreamFrame r = rightStream.selectExpr(projection.toArray(String[]::new));
    if (join.rightWatermark().isPresent()) {
      WatermarkConfig w = join.rightWatermark().get();
      r = r.withWatermark(rightName(w.column()), w.delay().text());
    }
    return l.alias("l").join(r.alias("r"), join.keys(), condition(), join.type().yamlName());
  }

  /** {@code within}: the right time in [left time, left time + within], on the two watermark columns. */
  private String condition() {
    if (join.timeCondition().isPresent()) {
      return join.timeCondition().get();
    }
    if (join.within().isEmpty()) {
      return null;
    }
    String lt = "l.`" + join.leftWatermark().orElseThrow().column() + "`";
    String rt = "r.`" + rightName(join.rightWatermark().orElseThrow().column()) + "`";
    return rt + " BETWEEN " + lt + " AND " + lt + " + INTERVAL '" + join.within().get().text() + "'";
  }

  /** The engine's output: the keys once, the left columns, then the right ones (the left ones for left_semi). */
  StructType outputSchema() {
    if (join.type() == StreamJoinConfig.Type.LEFT_SEMI) {
      return left;
    }
    List<StructField> fields = new ArrayList<>();
    for (String k : join.keys()) {
      fields.add(left.field(left.indexOf(k)));
    }
    for (StructField f : left.fields()) {
      if (!keys.contains(f.name().toLowerCase(Locale.ROOT))) {
        fields.add(f);
      }
    }
    for (StructField f : right.fields()) {
      if (!keys.contains(f.name().toLowerCase(Locale.ROOT))) {
        fields.add(new StructField(rightName(f.name()), f.type(), true, f.metadata()));
      }
    }
    return new StructType(fields);
  }
}
