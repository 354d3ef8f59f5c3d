package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.internal.plan.arbitrary.TwsLayout.Item;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.ListState;
import dev.sluice.ingestion.stateful.MapState;
import dev.sluice.ingestion.stateful.ValueState;
import dev.sluice.ingestion.state.internal.RowBytes;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The value, list and map states of {@code transformWithState}, over the items of the current key's entry. */
final class StateImpls {
  private StateImpls() {}

  static final class Value<T> implements ValueState<T> {
    private final ProcessorHandle handle;
    private final String name;
    private final VariableCodec<T> codec;

    Value(ProcessorHandle handle, String name, VariableCodec<T> codec) {
      this.handle = handle;
      this.name = name;
      this.codec = codec;
    }

    @Override
    public boolean exists() {
      return !handle.read(name).isEmpty();
    }

    @Override
    public T get() {
      List<Item> items = handle.read(name);
      return items.isEmpty() ? null : codec.decode(items.get(0));
    }

    @Override
    public void update(T value) {
      if (value == null) {
        throw new IllegalArgumentException("ValueState '" + name + "'.update(null) is not allowed; use clear()");
      }
      handle.write(name, List.of(codec.item(value, null, handle.expiry(name))));
    }

    @Override
    public void clear() {
      handle.write(name, List.of());
    }
  }

  static final class Lists<T> implements ListState<T> {
    private final ProcessorHandle handle;
    private final String name;
    private final VariableCodec<T> codec;

    Lists(ProcessorHandle handle, String name, VariableCodec<T> codec) {
      this.handle = handle;
      this.name = name;
      this.codec = codec;
    }

    @Override
    public boolean exists() {
      return !handle.read(name).isEmpty();
    }

    @Override
    public Iterator<T> get() {
      return handle.read(name).stream().map(codec::decode).iterator();
    }

    @Override
    public void put(List<T> values) {
      handle.write(name, encode(values));
    }

    @Override
    public void appendValue(T value) {
      appendList(List.of(value));
    }

    @Override
    public void appendList(List<T> values) {
      // Items keep the bytes they were written with: appending decodes nothing.
      List<Item> items = new ArrayList<>(handle.read(name));
      items.addAll(encode(values));
      handle.write(name, items);
    }

    private List<Item> encode(List<T> values) {
      Long expiry = handle.expiry(name);
      List<Item> out = new ArrayList<>(values.size());
      for (T v : values) {
        out.add(codec.item(v, null, expiry));
      }
      return out;
    }

    @Override
    public void clear() {
      handle.write(name, List.of());
    }
  }

  static final class Maps<K, V> implements MapState<K, V> {
    private final ProcessorHandle handle;
    private final String name;
    private final VariableCodec<V> codec;
    private final Encoder<K> keyEncoder;
    private final RowBytes keyBytes;

    Maps(ProcessorHandle handle, String name, VariableCodec<V> codec, Encoder<K> keyEncoder) {
      this.handle = handle;
      this.name = name;
      this.codec = codec;
      this.keyEncoder = keyEncoder;
      this.keyBytes = new RowBytes(keyEncoder.schema(), "map state '" + name + "' key");
    }

    private byte[] bytes(K key) {
      if (key == null) {
        throw new IllegalArgumentException("MapState '" + name + "' keys can't be null");
      }
      return keyBytes.encode(keyEncoder.toRow(key));
    }

    private Item find(byte[] key) {
      for (Item it : handle.read(name)) {
        if (Arrays.equals(it.key(), key)) {
          return it;
        }
      }
      return null;
    }

    @Override
    public boolean exists() {
      return !handle.read(name).isEmpty();
    }

    @Override
    public V getValue(K key) {
      Item it = find(bytes(key));
      return it == null ? null : codec.decode(it);
    }

    @Override
    public boolean containsKey(K key) {
      return find(bytes(key)) != null;
    }

    @Override
    public void updateValue(K key, V value) {
      byte[] k = bytes(key);
      List<Item> items = without(k);
      items.add(codec.item(value, k, handle.expiry(name)));
      handle.write(name, items);
    }

    private List<Item> without(byte[] key) {
      List<Item> items = new ArrayList<>(handle.read(name));
      items.removeIf(it -> Arrays.equals(it.key(), key));
      return items;
    }

    @Override
    public Iterator<Map.Entry<K, V>> iterator() {
      return handle.read(name).stream()
          .<Map.Entry<K, V>>map(it -> new AbstractMap.SimpleImmutableEntry<>(
              keyEncoder.fromRow(keyBytes.decode(it.key())), codec.decode(it)))
          .iterator();
    }

    @Override
    public Iterator<K> keys() {
      return handle.read(name).stream().map(it -> keyEncoder.fromRow(keyBytes.decode(it.key()))).iterator();
    }

    @Override
    public Iterator<V> values() {
      return handle.read(name).stream().map(codec::decode).iterator();
    }

    @Override
    public void removeKey(K key) {
      handle.write(name, without(bytes(key)));
    }

    @Override
    public void clear() {
      handle.write(name, List.of());
    }
  }
}
