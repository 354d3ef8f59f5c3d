package dev.sluice.ingestion.expr.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code get_json_object} path ({@code $.a.b[0]}, {@code $['a b']}) applied to JSON text: scalars
 * come back as their text, objects and arrays as JSON text, anything missing or invalid as null.
 */
final class JsonPath {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One step: a field name, or an array index when {@code name} is null. */
  private record Step(String name, int index) {}

  private final List<Step> steps;

  private JsonPath(List<Step> steps) {
    this.steps = steps;
  }

  /** The parsed path, or null when {@code path} is not one (Spark then returns null for every row). */
  static JsonPath parse(String path) {
    if (!path.startsWith("$")) {
      return null;
    }
    List<Step> steps = new ArrayList<>();
    int i = 1;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        if (end == i + 1) {
          return null;
        }
        steps.add(new Step(path.substring(i + 1, end), -1));
        i = end;
      } else if (c == '[') {
        int close = path.indexOf(']', i);
        if (close < 0) {
          return null;
        }
        String inside = path.substring(i + 1, close).trim();
        if (inside.length() >= 2 && inside.startsWith("'") && inside.endsWith("'")) {
          steps.add(new Step(inside.substring(1, inside.length() - 1), -1));
        } else {
          try {
            steps.add(new Step(null, Integer.parseInt(inside)));
          } catch (NumberFormatException e) {
            return null;
          }
        }
        i = close + 1;
      } else {
        return null;
      }
    }
    return new JsonPath(List.copyOf(steps));
  }

  String extract(String json) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      return null;
    }
    for (Step step : steps) {
      if (node == null) {
        return null;
      }
      node = step.name() != null ? node.get(step.name()) : node.isArray() ? node.get(step.index()) : null;
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    return node.isValueNode() ? node.asText() : node.toString();
  }
}
