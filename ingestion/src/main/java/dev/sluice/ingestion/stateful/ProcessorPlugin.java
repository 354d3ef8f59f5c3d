package dev.sluice.ingestion.stateful;

/**
 * What a stateful class loaded by name (from a jar, see {@link Plugins}) declares about its types, which Java
 * generics can't tell at run time: a {@link StatefulProcessor} or {@link FlatMapGroupsWithStateFunction} that is
 * loaded by name implements it. The class needs a public constructor taking no argument or a
 * {@code Map<String, String>} of options.
 */
public interface ProcessorPlugin {
  /** The encoder of the rows it emits. */
  Encoder<?> outputEncoder();

  /** The encoder of its {@code GroupState} (flatMapGroupsWithState functions only). */
  default Encoder<?> stateEncoder() {
    throw new UnsupportedOperationException(getClass().getName() + " is used as a flatMapGroupsWithState function"
        + " but doesn't declare its state: override ProcessorPlugin.stateEncoder()");
  }
}
