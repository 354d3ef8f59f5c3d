package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.internal.plan.arbitrary.TwsLayout.Item;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.ListState;
import dev.sluice.ingestion.stateful.MapState;
import dev.sluice.ingestion.stateful.StatefulProcessorHandle;
import dev.sluice.ingestion.stateful.TTLConfig;
import dev.sluice.ingestion.stateful.TimeMode;
import dev.sluice.ingestion.stateful.ValueState;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link StatefulProcessorHandle} of one {@code transformWithState} operator. When the query starts it only
 * records the variables {@code init} declares; in each batch it serves them for the current key from the store,
 * records each variable's value schema (evolving it when compatible) and keeps the due-time horizons up to date.
 */
final class ProcessorHandle implements StatefulProcessorHandle {
  private final String operator;
  private final TimeMode timeMode;
  private final TwsLayout layout;
  private final Map<String, StateVariable> declared = new LinkedHashMap<>();
  private final Map<String, VariableCodec<?>> codecs = new LinkedHashMap<>();
  private final DueTimes timers;
  private final DueTimes expiries;
  private StateStore store;
  private long nowMs;
  private Row key;

  /** A handle that records declarations (at query start). */
  ProcessorHandle(String operator, TimeMode timeMode, TwsLayout layout, DueTimes timers, DueTimes expiries) {
    this.operator = operator;
    this.timeMode = timeMode;
    this.layout = layout;
    this.timers = timers;
    this.expiries = expiries;
  }

  Map<String, StateVariable> declared() {
    return declared;
  }

  boolean anyTtl() {
    return declared.values().stream().anyMatch(v -> v.ttl().enabled());
  }

  /**
   * Starts a batch over {@code store}: reads each declared variable's recorded value schemas, and records the
   * current one when it is new and old values can follow it.
   *
   * @throws IllegalStateException naming the variable and the field when a value schema changed incompatibly
   */
  void startBatch(StateStore store, long nowMs) {
    this.store = store;
    this.nowMs = nowMs;
    codecs.clear();
    for (StateVariable v : declared.values()) {
      codecs.put(v.name(), codec(v));
    }
  }

  private <T> VariableCodec<T> codec(StateVariable v) {
    @SuppressWarnings("unchecked")
    Encoder<T> encoder = (Encoder<T>) v.valueEncoder();
    StructType now = encoder.schema();
    Row registryKey = layout.schemasKey(v.name());
    List<Item> recorded = TwsLayout.items(store.get(registryKey));
    List<StructType> history = new ArrayList<>();
    for (Item it : recorded) {
      history.add(StructType.fromJson(new String(it.data(), StandardCharsets.UTF_8)));
    }
    if (history.isEmpty() || !history.get(history.size() - 1).equals(now)) {
      if (!history.isEmpty()) {
        StructType last = history.get(history.size() - 1);
        List<String> problems = SchemaEvolution.incompatibilities(last, now, v.name());
        if (!problems.isEmpty()) {
          throw new IllegalStateException(operator + ": the value schema of state variable '" + v.name()
              + "' changed in a way its stored values can't follow:\n  - " + String.join("\n  - ", problems)
              + "\n  stored: " + last.toJson() + "\n  now:    " + now.toJson() + "\nAdding, removing and reordering"
              + " fields and widening numbers (int → long → double, float → double) are allowed. Undo the change, give"
              + " the changed value a new state name, or start the query with a new checkpointLocation.");
        }
      }
      history.add(now);
      recorded = new ArrayList<>(recorded);
      recorded.add(new Item(history.size() - 1, null, now.toJson().getBytes(StandardCharsets.UTF_8), null));
      store.put(registryKey, TwsLayout.value(recorded, false));
    }
    return new VariableCodec<>(v.name(), encoder, history);
  }

  void setKey(Row groupKey) {
    this.key = groupKey;
  }

  private StateVariable declare(String name, StateVariable.Kind kind, Encoder<?> value, Encoder<?> mapKey,
      TTLConfig ttl) {
    if (name == null || name.isEmpty() || name.startsWith("$")) {
      throw new IllegalArgumentException(operator + ": state name '" + name + "' is not allowed; use a non-empty"
          + " name that doesn't start with '$'");
    }
    StateVariable v = new StateVariable(name, kind, value, mapKey, ttl == null ? TTLConfig.NONE : ttl);
    if (store == null) {
      if (declared.putIfAbsent(name, v) != null) {
        throw new IllegalArgumentException(operator + ": state variable '" + name + "' is declared twice in init;"
            + " give each variable its own name");
      }
      return v;
    }
    StateVariable known = declared.get(name);
    if (known == null || !known.fingerprint().equals(v.fingerprint())
        || !known.valueEncoder().schema().equals(value.schema())) {
      throw new IllegalArgumentException(operator + ": state variable '" + name + "' (" + v.fingerprint() + ") was"
          + " not declared that way when the query started; declare every state variable in init, the same way in"
          + " every batch");
    }
    return known;
  }

  @Override
  public <T> ValueState<T> getValueState(String stateName, Encoder<T> valueEncoder, TTLConfig ttlConfig) {
    declare(stateName, StateVariable.Kind.VALUE, valueEncoder, null, ttlConfig);
    return store == null ? null : new StateImpls.Value<>(this, stateName, codecOf(stateName));
  }

  @Override
  public <T> ListState<T> getListState(String stateName, Encoder<T> valueEncoder, TTLConfig ttlConfig) {
    declare(stateName, StateVariable.Kind.LIST, valueEncoder, null, ttlConfig);
    return store == null ? null : new StateImpls.Lists<>(this, stateName, codecOf(stateName));
  }

  @Override
  public <K, V> MapState<K, V> getMapState(String stateName, Encoder<K> userKeyEncoder, Encoder<V> valueEncoder,
      TTLConfig ttlConfig) {
    declare(stateName, StateVariable.Kind.MAP, valueEncoder, userKeyEncoder, ttlConfig);
    return store == null ? null : new StateImpls.Maps<>(this, stateName, codecOf(stateName), userKeyEncoder);
  }

  @SuppressWarnings("unchecked")
  private <T> VariableCodec<T> codecOf(String name) {
    return (VariableCodec<T>) codecs.get(name);
  }

  private Row currentKey(String what) {
    if (store == null || key == null) {
      throw new IllegalStateException(operator + ": " + what + " needs a current key; use state variables and"
          + " timers in handleInputRows and handleExpiredTimer, not in init");
    }
    return key;
  }

  /** The current key's unexpired items of {@code variable}. */
  List<Item> read(String variable) {
    List<Item> items = TwsLayout.items(store.get(layout.key(currentKey("state variable '" + variable + "'"),
        variable)));
    items.removeIf(it -> it.expired(nowMs));
    return items;
  }

  /** Replaces the current key's items of {@code variable}; no items removes its entry. */
  void write(String variable, List<Item> items) {
    Row k = layout.key(currentKey("state variable '" + variable + "'"), variable);
    if (items.isEmpty()) {
      store.remove(k);
      return;
    }
    boolean isTimers = variable.equals(TwsLayout.TIMERS);
    Row value = TwsLayout.value(items, isTimers);
    Long expires = TwsLayout.expiresAt(value);
    if (expires != null) {
      expiries.add(expires);
    }
    if (isTimers) {
      timers.add(TwsLayout.timerAt(value));
    }
    store.put(k, value);
  }

  /** The expiry of a value written now to {@code variable} (null without TTL). */
  Long expiry(String variable) {
    TTLConfig ttl = declared.get(variable).ttl();
    return ttl.enabled() ? nowMs + ttl.ttlDuration().toMillis() : null;
  }

  private void requireTimers(String what) {
    if (timeMode == TimeMode.NONE) {
      throw new UnsupportedOperationException(operator + ": " + what + " needs timers, but the processor runs with"
          + " TimeMode.None(); pass TimeMode.ProcessingTime() or TimeMode.EventTime() to transformWithState");
    }
  }

  @Override
  public void registerTimer(long expiryTimestampMs) {
    requireTimers("registerTimer");
    List<Item> items = read(TwsLayout.TIMERS);
    for (Item it : items) {
      if (TwsLayout.timerOf(it) == expiryTimestampMs) {
        return;
      }
    }
    items.add(TwsLayout.timer(expiryTimestampMs));
    write(TwsLayout.TIMERS, items);
  }

  @Override
  public void deleteTimer(long expiryTimestampMs) {
    requireTimers("deleteTimer");
    List<Item> items = read(TwsLayout.TIMERS);
    if (items.removeIf(it -> TwsLayout.timerOf(it) == expiryTimestampMs)) {
      write(TwsLayout.TIMERS, items);
    }
  }

  @Override
  public Iterator<Long> listTimers() {
    requireTimers("listTimers");
    return read(TwsLayout.TIMERS).stream().map(TwsLayout::timerOf).sorted().iterator();
  }

  @Override
  public void deleteIfExists(String stateName) {
    if (!declared.containsKey(stateName)) {
      throw new IllegalArgumentException(operator + ": no state variable '" + stateName + "'; declared: "
          + declared.keySet());
    }
    write(stateName, List.of());
  }
}
