package dev.sluice.config;

import java.util.Collection;

/**
 * A check of a loaded config that the config module can't make itself, such as binding SQL expressions to
 * the schemas the engine will see; its problems are placed at their YAML lines like the loader's own.
 */
@FunctionalInterface
public interface ConfigCheck {
  /** Reports problems of {@code config}, each at a config path such as {@code pipelines[1].sink.merge.keys[0]}. */
  void check(SluiceConfig config, Reporter reporter);

  /** Where a check reports. */
  interface Reporter {
    void problem(String path, String message, String hint);

    /** {@code "; did you mean `x`?"} when a candidate is close to {@code word}, else empty. */
    String didYouMean(String word, Collection<String> candidates);
  }
}
