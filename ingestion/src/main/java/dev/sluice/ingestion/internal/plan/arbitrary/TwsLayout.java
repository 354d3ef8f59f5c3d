package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code transformWithState} keeps all its state variables, timers and value schemas in one store: one entry
 * per (grouping key, variable) whose value is a list of items. A value state has at most one item, a list state one
 * per element, a map state one per map entry (its encoded user key in {@code key}); timers are the items of the
 * key's {@code $timers} entry. Each item carries the id of the value schema it was written with (so values written
 * before a schema change still read) and its TTL expiry; the entry carries the earliest expiry and timer, so that a
 * scan for due work decodes no item. The value schemas of each variable, in order of appearance, are the items of
 * the {@code $schemas:<name>} entry under an all-null grouping key (user state names can't start with {@code $}).
 */
final class TwsLayout {
  static final String TIMERS = "$timers";
  static final String SCHEMAS = "$schemas:";
  static final StructType ITEM = StructType.of(StructField.of("schema", PrimitiveType.INTEGER),
      StructField.of("key", PrimitiveType.BINARY), StructField.of("data", PrimitiveType.BINARY),
      StructField.of("expiresAtMs", PrimitiveType.LONG));
  static final StructType VALUE = StructType.of(StructField.of("items", new ArrayType(ITEM, false)),
      StructField.of("expiresAtMs", PrimitiveType.LONG), StructField.of("timerMs", PrimitiveType.LONG));

  /** One item of an entry; {@code key} is null except in map states, {@code expiresAtMs} null without TTL. */
  record Item(int schema, byte[] key, byte[] data, Long expiresAtMs) {
    boolean expired(long nowMs) {
      return expiresAtMs != null && expiresAtMs <= nowMs;
    }
  }

  private final StructType keySchema;
  private final int groupKeySize;

  TwsLayout(StructType groupKeySchema) {
    this.groupKeySize = groupKeySchema.size();
    this.keySchema = groupKeySchema.add("$state", PrimitiveType.STRING);
  }

  StructType keySchema() {
    return keySchema;
  }

  Row key(Row groupKey, String variable) {
    Object[] values = new Object[groupKeySize + 1];
    for (int i = 0; i < groupKeySize; i++) {
      values[i] = groupKey.get(i);
    }
    values[groupKeySize] = variable;
    return Row.of(values);
  }

  Row schemasKey(String variable) {
    Object[] values = new Object[groupKeySize + 1];
    values[groupKeySize] = SCHEMAS + variable;
    return Row.of(values);
  }

  Row groupKey(Row storeKey) {
    Object[] values = new Object[groupKeySize];
    for (int i = 0; i < groupKeySize; i++) {
      values[i] = storeKey.get(i);
    }
    return Row.of(values);
  }

  String variable(Row storeKey) {
    return (String) storeKey.get(groupKeySize);
  }

  static List<Item> items(Row value) {
    List<Item> out = new ArrayList<>();
    if (value == null) {
      return out;
    }
    for (Object o : (List<?>) value.get(0)) {
      Row r = (Row) o;
      out.add(new Item((Integer) r.get(0), (byte[]) r.get(1), (byte[]) r.get(2), (Long) r.get(3)));
    }
    return out;
  }

  /** The entry value of {@code items}; for timers, {@code timerMs} is the earliest timer. */
  static Row value(List<Item> items, boolean timers) {
    List<Row> rows = new ArrayList<>(items.size());
    Long expires = null;
    Long timer = null;
    for (Item it : items) {
      rows.add(Row.of(it.schema(), it.key(), it.data(), it.expiresAtMs()));
      if (it.expiresAtMs() != null) {
        expires = expires == null ? it.expiresAtMs() : Math.min(expires, it.expiresAtMs());
      }
      if (timers) {
        long t = timerOf(it);
        timer = timer == null ? t : Math.min(timer, t);
      }
    }
    return Row.of(rows, expires, timer);
  }

  static Long expiresAt(Row value) {
    return (Long) value.get(1);
  }

  static Long timerAt(Row value) {
    return (Long) value.get(2);
  }

  static Item timer(long ms) {
    return new Item(0, null, java.nio.ByteBuffer.allocate(8).putLong(ms).array(), null);
  }

  static long timerOf(Item it) {
    return java.nio.ByteBuffer.wrap(it.data()).getLong();
  }
}
