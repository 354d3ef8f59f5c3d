package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.TTLConfig;

/** A state variable as a processor declared it in {@code init}. */
record StateVariable(String name, Kind kind, Encoder<?> valueEncoder, Encoder<?> keyEncoder, TTLConfig ttl) {
  enum Kind { VALUE, LIST, MAP }

  /** What must stay the same across restarts (value schemas may evolve; see {@link SchemaEvolution}). */
  String fingerprint() {
    String base = kind.name().toLowerCase(java.util.Locale.ROOT);
    return kind == Kind.MAP ? base + "(key " + keyEncoder.schema().toJson() + ")" : base;
  }
}
