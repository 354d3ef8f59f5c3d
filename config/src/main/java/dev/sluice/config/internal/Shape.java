package dev.sluice.config.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The keys a level of the config accepts, and the shape of each value; the one list the loader checks keys by. */
final class Shape {
  enum Kind {
    /** A string, number or boolean. */
    SCALAR,
    /** A list of scalars. */
    SCALAR_LIST,
    /** A mapping with the keys of {@link #children}. */
    OBJECT,
    /** A list of mappings with the keys of {@link #children}. */
    OBJECT_LIST,
    /** A mapping with any keys and scalar values (engine options). */
    FREE_MAP,
    /** A scalar, or a mapping with the keys of {@link #children} (triggers). */
    SCALAR_OR_OBJECT
  }

  static final Shape SCALAR = new Shape(Kind.SCALAR, Map.of());
  static final Shape SCALAR_LIST = new Shape(Kind.SCALAR_LIST, Map.of());
  static final Shape FREE_MAP = new Shape(Kind.FREE_MAP, Map.of());

  private final Kind kind;
  private final Map<String, Shape> children;

  private Shape(Kind kind, Map<String, Shape> children) {
    this.kind = kind;
    this.children = Collections.unmodifiableMap(children);
  }

  /** {@code object("name", SCALAR, "source", SOURCE, ...)}, keys in documentation order. */
  static Shape object(Object... keysAndShapes) {
    return new Shape(Kind.OBJECT, pairs(keysAndShapes));
  }

  static Shape listOf(Shape element) {
    return new Shape(Kind.OBJECT_LIST, element.children);
  }

  static Shape scalarOr(Shape object) {
    return new Shape(Kind.SCALAR_OR_OBJECT, object.children);
  }

  Kind kind() {
    return kind;
  }

  Set<String> keys() {
    return children.keySet();
  }

  Shape child(String key) {
    Shape child = children.get(key);
    if (child == null) {
      throw new IllegalArgumentException("No key `" + key + "` in " + children.keySet());
    }
    return child;
  }

  /**
   * Every accepted key as a path: {@code pipelines[].sink.merge.keys}, {@code pipelines[].source.options.*}
   * (any key). The schema test compares this with the published JSON Schema.
   */
  Set<String> paths() {
    Set<String> out = new TreeSet<>();
    collect("", out);
    return out;
  }

  private void collect(String prefix, Set<String> out) {
    children.forEach((key, shape) -> {
      String path = prefix.isEmpty() ? key : prefix + "." + key;
      out.add(path);
      switch (shape.kind) {
        case OBJECT_LIST:
          shape.collect(path + "[]", out);
          break;
        case FREE_MAP:
          out.add(path + ".*");
          break;
        default:
          shape.collect(path, out);
      }
    });
  }

  private static Map<String, Shape> pairs(Object... keysAndShapes) {
    Map<String, Shape> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndShapes.length; i += 2) {
      map.put((String) keysAndShapes[i], (Shape) keysAndShapes[i + 1]);
    }
    return map;
  }
}
