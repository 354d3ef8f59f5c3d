package dev.sluice.config.internal;

import dev.sluice.config.ConfigCheck;
import dev.sluice.config.ConfigException;
import dev.sluice.config.SluiceConfig;
import java.util.Collection;
import java.util.Map;

/** Parses and validates config text; the implementation behind {@code ConfigLoader}. */
public final class ConfigParser {
  private ConfigParser() {}

  /** @throws ConfigException with every problem found, the loader's and then those of {@code checks} */
  public static SluiceConfig parse(String yaml, String sourceName, Map<String, String> env, ConfigCheck... checks) {
    Problems problems = new Problems();
    YamlNode root = YamlTree.parse(yaml, problems);
    SluiceConfig config = root == null ? null : new ConfigReader(problems, new EnvInterpolator(env)).read(root);
    if (config != null && problems.isEmpty()) {
      ConfigCheck.Reporter reporter = new ConfigCheck.Reporter() {
        @Override
        public void problem(String path, String message, String hint) {
          problems.add(path, message, hint);
        }

        @Override
        public String didYouMean(String word, Collection<String> candidates) {
          return Suggestions.closest(word, candidates).map(s -> "; did you mean `" + s + "`?").orElse("");
        }
      };
      for (ConfigCheck check : checks) {
        check.check(config, reporter);
      }
    }
    if (!problems.isEmpty() || config == null) {
      if (problems.isEmpty()) {
        throw new IllegalStateException("The config reader found no problem but built no config; this is a bug");
      }
      throw new ConfigException(sourceName, problems.sorted());
    }
    return config;
  }
}
