package dev.sluice.config.internal;

import dev.sluice.config.Interval;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One YAML mapping being read at a path: typed getters that interpolate {@code ${env:…}}, record a problem
 * instead of throwing, and return null (or empty) for a value that is missing or wrong.
 */
final class Fields {
  private final YamlNode.MapNode node;
  private final String path;
  private final Shape shape;
  private final Context context;

  /** What every reader shares: the problems found so far and the environment. */
  record Context(Problems problems, EnvInterpolator env) {}

  private Fields(YamlNode.MapNode node, String path, Shape shape, Context context) {
    this.node = node;
    this.path = path;
    this.shape = shape;
    this.context = context;
  }

  /** The mapping's fields, or null (with a problem) when the node is not a mapping; unknown keys are reported. */
  static Fields of(YamlNode value, String path, Shape shape, Context context, String expected) {
    if (!(value instanceof YamlNode.MapNode)) {
      context.problems().add(path, "expected " + expected + ", got " + value.describe(),
          "valid keys here: " + String.join(", ", shape.keys()));
      return null;
    }
    Fields fields = new Fields((YamlNode.MapNode) value, path, shape, context);
    fields.reportUnknownKeys();
    return fields;
  }

  private void reportUnknownKeys() {
    for (String key : node.entries().keySet()) {
      if (!shape.keys().contains(key)) {
        String suggestion = Suggestions.closest(key, shape.keys()).map(s -> "; did you mean `" + s + "`?").orElse("");
        problem(key, "unknown key `" + key + "`" + suggestion, "valid keys here: " + String.join(", ", shape.keys()));
      }
    }
  }

  String path() {
    return path;
  }

  String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  Context context() {
    return context;
  }

  Problems problems() {
    return context.problems();
  }

  void problem(String key, String message, String hint) {
    context.problems().add(path(key), message, hint);
  }

  /** True when the key is written with a non-empty value. */
  boolean has(String key) {
    YamlNode value = node.entries().get(key);
    return value != null && !(value instanceof YamlNode.ScalarNode && ((YamlNode.ScalarNode) value).isNull());
  }

  /** The keys written in this mapping that are known, in file order. */
  List<String> writtenKeys() {
    List<String> keys = new ArrayList<>();
    for (String key : node.entries().keySet()) {
      if (shape.keys().contains(key) && has(key)) {
        keys.add(key);
      }
    }
    return keys;
  }

  YamlNode raw(String key) {
    return node.entries().get(key);
  }

  /** Reports a missing key; returns false when it is missing. */
  boolean require(String key, String hint) {
    if (has(key)) {
      return true;
    }
    problem(key, "required", hint);
    return false;
  }

  /** The interpolated text, or null when absent or wrong. */
  String string(String key) {
    if (!has(key)) {
      return null;
    }
    YamlNode value = raw(key);
    if (!(value instanceof YamlNode.ScalarNode)) {
      problem(key, "expected a single value, got " + value.describe(), "");
      return null;
    }
    return context.env().resolve(((YamlNode.ScalarNode) value).text(), path(key), context.problems());
  }

  String requiredString(String key, String hint) {
    if (!require(key, hint)) {
      return null;
    }
    String value = string(key);
    if (value != null && value.isBlank()) {
      problem(key, "must not be empty", hint);
      return null;
    }
    return value;
  }

  Optional<String> optionalString(String key) {
    return Optional.ofNullable(string(key)).filter(s -> !s.isBlank());
  }

  /** The raw (not interpolated) text of a scalar, or null. */
  String rawText(String key) {
    YamlNode value = raw(key);
    return value instanceof YamlNode.ScalarNode && has(key) ? ((YamlNode.ScalarNode) value).text() : null;
  }

  /** A list of scalars; empty when absent or wrong. {@code what} is plural: "column names". */
  List<String> strings(String key, String what) {
    if (!has(key)) {
      return List.of();
    }
    YamlNode value = raw(key);
    if (!(value instanceof YamlNode.ListNode)) {
      problem(key, "expected a list of " + what + ", got " + value.describe(), "write [a, b] or one `- a` per line");
      return List.of();
    }
    List<String> out = new ArrayList<>();
    List<YamlNode> items = ((YamlNode.ListNode) value).items();
    for (int i = 0; i < items.size(); i++) {
      String itemPath = path(key) + "[" + i + "]";
      YamlNode item = items.get(i);
      if (!(item instanceof YamlNode.ScalarNode) || ((YamlNode.ScalarNode) item).isNull()
          || ((YamlNode.ScalarNode) item).text().isBlank()) {
        context.problems().add(itemPath, "expected a list of " + what + ", got " + item.describe() + " here", "");
        continue;
      }
      String text = context.env().resolve(((YamlNode.ScalarNode) item).text(), itemPath, context.problems());
      if (text != null) {
        out.add(text);
      }
    }
    return out;
  }

  List<String> requiredStrings(String key, String what, String hint) {
    if (!require(key, hint)) {
      return null;
    }
    List<String> values = strings(key, what);
    if (values.isEmpty() && raw(key) instanceof YamlNode.ListNode && ((YamlNode.ListNode) raw(key)).items().isEmpty()) {
      problem(key, "must not be an empty list", hint);
      return null;
    }
    return values;
  }

  Integer integer(String key, int min) {
    String text = string(key);
    if (text == null) {
      return null;
    }
    long value;
    try {
      value = Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      problem(key, "expected a whole number, got " + raw(key).describe(), "");
      return null;
    }
    if (value < min || value > Integer.MAX_VALUE) {
      problem(key, "must be at least " + min + ", got " + value, "");
      return null;
    }
    return (int) value;
  }

  Boolean bool(String key) {
    String text = string(key);
    if (text == null) {
      return null;
    }
    if (text.strip().equalsIgnoreCase("true") || text.strip().equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text.strip());
    }
    problem(key, "expected true or false, got " + raw(key).describe(), "");
    return null;
  }

  /** One of the allowed names; {@code fallback} when absent; null (with a problem) when not allowed. */
  <E> E choice(String key, Map<String, E> allowed, E fallback) {
    String text = string(key);
    if (text == null) {
      return has(key) ? null : fallback;
    }
    E value = allowed.get(text.strip());
    if (value == null) {
      String suggestion = Suggestions.closest(text.strip(), allowed.keySet())
          .map(s -> "; did you mean `" + s + "`?").orElse("");
      problem(key, "`" + text + "` is not one of: " + String.join(", ", allowed.keySet()) + suggestion, "");
    }
    return value;
  }

  Interval interval(String key) {
    String text = string(key);
    if (text == null) {
      return null;
    }
    try {
      return Intervals.parse(text);
    } catch (IllegalArgumentException e) {
      problem(key, e.getMessage(), Intervals.FORMS);
      return null;
    }
  }

  /** The nested mapping's fields, or null when absent or not a mapping. */
  Fields object(String key, String expected) {
    if (!has(key)) {
      return null;
    }
    return of(raw(key), path(key), shape.child(key), context, expected);
  }

  /** The mappings of a list; an item that is not a mapping is reported and left out. */
  List<Fields> objects(String key, String expected) {
    if (!has(key)) {
      return List.of();
    }
    YamlNode value = raw(key);
    if (!(value instanceof YamlNode.ListNode)) {
      problem(key, "expected a list of " + expected + ", got " + value.describe(), "start each item with `- `");
      return List.of();
    }
    List<Fields> out = new ArrayList<>();
    List<YamlNode> items = ((YamlNode.ListNode) value).items();
    for (int i = 0; i < items.size(); i++) {
      Fields item = of(items.get(i), path(key) + "[" + i + "]", shape.child(key), context, expected);
      if (item != null) {
        out.add(item);
      }
    }
    return out;
  }

  /** Engine options: any keys, scalar values as text, in file order. */
  Map<String, String> options(String key) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!has(key)) {
      return out;
    }
    YamlNode value = raw(key);
    if (!(value instanceof YamlNode.MapNode)) {
      problem(key, "expected a mapping of engine options, got " + value.describe(), "e.g. {maxFilesPerTrigger: 10}");
      return out;
    }
    ((YamlNode.MapNode) value).entries().forEach((name, option) -> {
      String optionPath = path(key) + "." + name;
      if (!(option instanceof YamlNode.ScalarNode) || ((YamlNode.ScalarNode) option).isNull()) {
        context.problems().add(optionPath, "expected a string, number or boolean, got " + option.describe(), "");
        return;
      }
      String text = context.env().resolve(((YamlNode.ScalarNode) option).text(), optionPath, context.problems());
      if (text != null) {
        out.put(name, text);
      }
    });
    return out;
  }
}
