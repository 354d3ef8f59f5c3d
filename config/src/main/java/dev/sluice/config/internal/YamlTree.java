package dev.sluice.config.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML into {@link YamlNode}s straight from Jackson's token stream.
 *
 * <p>{@code ObjectMapper.readTree} would drop token locations, and line numbers are the point of the config
 * messages; so the tree is built here, recording each path's line in {@link Problems} as it goes.
 */
final class YamlTree {
  private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

  private final Problems problems;

  private YamlTree(Problems problems) {
    this.problems = problems;
  }

  /** The root node, or null when the text is empty or not YAML (the problem is then recorded). */
  static YamlNode parse(String yaml, Problems problems) {
    return new YamlTree(problems).parse(yaml);
  }

  private YamlNode parse(String yaml) {
    try (JsonParser parser = FACTORY.createParser(yaml)) {
      if (parser.nextToken() == null) {
        problems.add("", YamlNode.Mark.START, "the file is empty",
            "start with `warehouse:` and `pipelines:`; see the reference in SluiceConfig's Javadoc");
        return null;
      }
      YamlNode root = read(parser, "", mark(parser.currentTokenLocation()));
      if (parser.nextToken() != null) {
        problems.add("", mark(parser.currentTokenLocation()), "the file holds more than one YAML document",
            "keep one document (remove the second `---`)");
      }
      return root;
    } catch (JsonProcessingException e) {
      problems.add("", errorMark(e, yaml), "not valid YAML: " + firstLine(e),
          "check indentation and quoting around this line; inside { } or [ ], quote values that hold"
              + " ${env:…}, commas, braces or colons");
      return null;
    } catch (IOException e) {
      // The input is an in-memory string: an I/O error here is a bug, not a config problem.
      throw new UncheckedIOException(e);
    }
  }

  private YamlNode read(JsonParser parser, String path, YamlNode.Mark mark) throws IOException {
    problems.mark(path, mark);
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      return readMap(parser, path, mark);
    }
    if (token == JsonToken.START_ARRAY) {
      List<YamlNode> items = new ArrayList<>();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        items.add(read(parser, path + "[" + items.size() + "]", mark(parser.currentTokenLocation())));
      }
      return new YamlNode.ListNode(items, mark);
    }
    if (parser instanceof YAMLParser && ((YAMLParser) parser).isCurrentAlias()) {
      problems.add(path, mark, "YAML aliases (`*" + parser.getText() + "`) are not supported",
          "write the value out, or use `defaults:` for settings shared by every pipeline");
    }
    return new YamlNode.ScalarNode(kind(token), token == JsonToken.VALUE_NULL ? "" : parser.getText(), mark);
  }

  private YamlNode readMap(JsonParser parser, String path, YamlNode.Mark mark) throws IOException {
    Map<String, YamlNode> entries = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      YamlNode.Mark keyMark = mark(parser.currentTokenLocation());
      String childPath = path.isEmpty() ? key : path + "." + key;
      parser.nextToken();
      YamlNode value = read(parser, childPath, keyMark);
      if (entries.containsKey(key)) {
        problems.add(childPath, keyMark, "duplicate key `" + key + "` (first at line "
            + entries.get(key).mark().line() + ")", "keep one of them");
      } else {
        entries.put(key, value);
      }
    }
    return new YamlNode.MapNode(entries, mark);
  }

  private static YamlNode.ScalarNode.Kind kind(JsonToken token) {
    switch (token) {
      case VALUE_NULL:
        return YamlNode.ScalarNode.Kind.NULL;
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return YamlNode.ScalarNode.Kind.NUMBER;
      case VALUE_TRUE:
      case VALUE_FALSE:
        return YamlNode.ScalarNode.Kind.BOOLEAN;
      default:
        return YamlNode.ScalarNode.Kind.STRING;
    }
  }

  private static YamlNode.Mark mark(JsonLocation location) {
    return new YamlNode.Mark(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
  }

  /**
   * Where SnakeYAML found the problem. Jackson's own location is that of the last good token, a line or more
   * before a stray tab, so the problem mark (0-based) is preferred when there is one; at the end of the text it
   * is kept on the last line written, not the empty one after the final newline.
   */
  private static YamlNode.Mark errorMark(JsonProcessingException e, String yaml) {
    if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
      Mark problem = marked.getProblemMark();
      int lastLine = (int) Math.max(1, yaml.lines().count());
      return problem.getLine() + 1 > lastLine ? new YamlNode.Mark(lastLine, 1)
          : new YamlNode.Mark(problem.getLine() + 1, problem.getColumn() + 1);
    }
    JsonLocation at = e.getLocation();
    return at == null ? YamlNode.Mark.START : mark(at);
  }

  private static String firstLine(JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    // SnakeYAML's message is "context / position / snippet / caret / problem / position / ...": keep the words.
    List<String> kept = new ArrayList<>();
    List<String> lines = message.strip().lines().collect(java.util.stream.Collectors.toList());
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.startsWith("in '") || line.startsWith("in 'reader'")) {
        i += 2;
      } else if (!line.isEmpty()) {
        kept.add(line);
      }
    }
    return kept.isEmpty() ? message.strip() : String.join(": ", kept);
  }
}
