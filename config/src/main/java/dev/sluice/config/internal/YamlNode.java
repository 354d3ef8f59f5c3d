package dev.sluice.config.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A YAML node that remembers where it was written, so that every problem can name its line. */
sealed interface YamlNode {
  Mark mark();

  /** How the node reads in a message: "a mapping", "a list", "a string `x`", ... */
  String describe();

  /** A 1-based line and column. */
  record Mark(int line, int column) {
    static final Mark START = new Mark(1, 1);
  }

  /** A mapping, in file order. */
  record MapNode(Map<String, YamlNode> entries, Mark mark) implements YamlNode {
    public MapNode {
      entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** A sequence. */
  record ListNode(List<YamlNode> items, Mark mark) implements YamlNode {
    public ListNode {
      items = List.copyOf(items);
    }

    @Override
    public String describe() {
      return "a list";
    }
  }

  /** A scalar with its YAML type as Jackson resolved it (quoted text is always a string). */
  record ScalarNode(Kind kind, String text, Mark mark) implements YamlNode {
    enum Kind { STRING, NUMBER, BOOLEAN, NULL }

    boolean isNull() {
      return kind == Kind.NULL;
    }

    @Override
    public String describe() {
      switch (kind) {
        case NULL:
          return "an empty value";
        case NUMBER:
          return "the number " + text;
        case BOOLEAN:
          return "the boolean " + text;
        default:
          return "the string `" + text + "`";
      }
    }
  }
}
