package dev.sluice.config.internal;

import dev.sluice.config.ConfigException;
import dev.sluice.config.SluiceConfig;
import java.util.Map;

/** Parses and validates config text; the implementation behind {@code ConfigLoader}. */
public final class ConfigParser {
  private ConfigParser() {}

  /** @throws ConfigException with every problem found */
  public static SluiceConfig parse(String yaml, String sourceName, Map<String, String> env) {
    Problems problems = new Problems();
    YamlNode root = YamlTree.parse(yaml, problems);
    SluiceConfig config = root == null ? null : new ConfigReader(problems, new EnvInterpolator(env)).read(root);
    if (!problems.isEmpty() || config == null) {
      if (problems.isEmpty()) {
        throw new IllegalStateException("The config reader found no problem but built no config; this is a bug");
      }
      throw new ConfigException(sourceName, problems.sorted());
    }
    return config;
  }
}
