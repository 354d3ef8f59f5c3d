package dev.sluice.config;

import dev.sluice.config.internal.ConfigParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Loads a Sluice YAML config: parses, interpolates {@code ${env:…}}, validates, and reports every problem at once. */
public final class ConfigLoader {
  private ConfigLoader() {}

  /**
   * Loads a file, interpolating from the process environment.
   *
   * @throws ConfigException if the file cannot be read or has any problem
   */
  public static SluiceConfig load(Path file) {
    return load(file, System.getenv());
  }

  /**
   * Loads a file, interpolating from {@code env}.
   *
   * @throws ConfigException if the file cannot be read or has any problem
   */
  public static SluiceConfig load(Path file, Map<String, String> env) {
    return load(file, env, new ConfigCheck[0]);
  }

  /**
   * Loads a file and runs {@code checks} over it once it has no problem of its own.
   *
   * @throws ConfigException if the file cannot be read or has any problem, the checks' included
   */
  public static SluiceConfig load(Path file, Map<String, String> env, ConfigCheck... checks) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw unreadable(file, "the file does not exist", "check the path (relative paths start at "
          + Path.of("").toAbsolutePath() + ")");
    } catch (IOException e) {
      throw unreadable(file, "cannot read the file: " + e, "check that it is a readable UTF-8 text file");
    }
    return ConfigParser.parse(text, file.toString(), env, checks);
  }

  /**
   * Parses config text.
   *
   * @param sourceName names the text in messages (usually the file name)
   * @param env the variables {@code ${env:NAME}} reads
   * @throws ConfigException listing every problem, each with its YAML path and line
   */
  public static SluiceConfig parse(String yaml, String sourceName, Map<String, String> env) {
    return ConfigParser.parse(yaml, sourceName, env);
  }

  private static ConfigException unreadable(Path file, String message, String hint) {
    return new ConfigException(file.toString(), List.of(new ConfigProblem("", 0, 0, message, hint)));
  }
}
