package dev.sluice.config.internal;

import dev.sluice.config.StateStoreConfig;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads {@code state_store} of {@code defaults} or a pipeline: {@code rocksdb} / {@code in_memory}, or
 * {@code {provider: rocksdb, memory: 128m, local_dir: /mnt/ssd/state}}.
 */
final class StateStoreReader {
  private static final Pattern SIZE = Pattern.compile("\\d+\\s*[kmgt]?b?");
  private static final String EXPECTED = "in_memory, rocksdb or {provider: rocksdb, memory: 64m, local_dir: <folder>}";

  private StateStoreReader() {}

  /** The store {@code owner.key} names; {@code fallback} when it is absent; null after reporting a problem. */
  static StateStoreConfig read(Fields owner, String key, StateStoreConfig fallback) {
    if (!owner.has(key)) {
      return fallback;
    }
    YamlNode node = owner.raw(key);
    if (node instanceof YamlNode.MapNode) {
      Fields fields = Fields.of(node, owner.path(key), ConfigShape.STATE_STORE, owner.context(), "a state store");
      if (fields == null || !fields.require("provider", "e.g. {provider: rocksdb}")) {
        return null;
      }
      String provider = provider(fields, "provider", fields.string("provider"));
      Optional<String> memory = fields.optionalString("memory");
      if (memory.isPresent() && !SIZE.matcher(memory.get().strip().toLowerCase(Locale.ROOT)).matches()) {
        fields.problem("memory", "`" + memory.get() + "` is not a size", "e.g. memory: 64m (also 512k, 1g)");
        return null;
      }
      if (memory.isPresent() && StateStoreConfig.IN_MEMORY.equals(provider)) {
        fields.problem("memory", "`memory` bounds RocksDB's native memory; the in_memory store keeps state in the"
            + " JVM heap", "remove `memory`, or set provider: rocksdb");
        return null;
      }
      Optional<String> localDir = fields.optionalString("local_dir");
      return provider == null ? null : new StateStoreConfig(provider, memory.map(String::strip), localDir);
    }
    String provider = provider(owner, key, owner.string(key));
    return provider == null ? null : new StateStoreConfig(provider, Optional.empty(), Optional.empty());
  }

  private static String provider(Fields owner, String key, String text) {
    if (text == null) {
      if (!(owner.raw(key) instanceof YamlNode.ScalarNode)) {
        owner.problem(key, "expected " + EXPECTED + ", got " + owner.raw(key).describe(), "");
      }
      return null;
    }
    String v = text.strip().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    switch (v) {
      case "inmemory":
        return StateStoreConfig.IN_MEMORY;
      case "rocksdb":
        return StateStoreConfig.ROCKSDB;
      default:
        owner.problem(key, "`" + text + "` is not a state store: use " + EXPECTED,
            Suggestions.didYouMean(text.strip(), List.of("in_memory", "rocksdb")));
        return null;
    }
  }
}
