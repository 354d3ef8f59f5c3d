package dev.sluice.table.internal.scan;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.OptionalLong;

/** Reads {@code numRecords} from a stats JSON string without building the whole tree. */
public final class StatsJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private StatsJson() {}

  public static OptionalLong numRecords(String stats) {
    if (stats == null || stats.isBlank()) {
      return OptionalLong.empty();
    }
    try (JsonParser p = FACTORY.createParser(stats)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return OptionalLong.empty();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equals("numRecords") && value == JsonToken.VALUE_NUMBER_INT) {
          return OptionalLong.of(p.getLongValue());
        }
        p.skipChildren();
      }
      return OptionalLong.empty();
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }
}
