package dev.sluice.ingestion.stateful;

import dev.sluice.ingestion.KeyValueGroupedFrame;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.StreamFrame;
import dev.sluice.table.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Loads a user's {@link StatefulProcessor} or {@link FlatMapGroupsWithStateFunction} by class name from jars (the
 * {@code --jars} of a run, the jars of a {@code plugins/} folder) and applies it to a stream grouped by key columns.
 */
public final class Plugins {
  private Plugins() {}

  /**
   * A class loader over {@code jars} and every {@code *.jar} of {@code pluginsDir} (when it exists), whose parent is
   * Sluice's own loader (so the user's classes see Sluice's API).
   *
   * @throws IllegalArgumentException naming a jar that does not exist
   */
  public static ClassLoader classLoader(List<Path> jars, Path pluginsDir) {
    List<URL> urls = new ArrayList<>();
    try {
      for (Path jar : jars) {
        if (!Files.isRegularFile(jar)) {
          throw new IllegalArgumentException("Jar " + jar + " does not exist; check the --jars paths");
        }
        urls.add(jar.toUri().toURL());
      }
      if (pluginsDir != null && Files.isDirectory(pluginsDir)) {
        try (Stream<Path> files = Files.list(pluginsDir)) {
          for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
            urls.add(p.toUri().toURL());
          }
        }
      }
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("Bad jar path: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Listing plugins folder " + pluginsDir + " failed: " + e, e);
    }
    return new URLClassLoader(urls.toArray(URL[]::new), Plugins.class.getClassLoader());
  }

  /**
   * Applies the class {@code className} (from {@code loader}) to {@code input} grouped by {@code keys}: a
   * {@link StatefulProcessor} through {@code transformWithState} (timeout: {@code none}, {@code processing_time} or
   * {@code event_time} as its {@link TimeMode}), a {@link FlatMapGroupsWithStateFunction} through
   * {@code flatMapGroupsWithState} (timeout as its {@link GroupStateTimeout}).
   *
   * @throws IllegalArgumentException naming the class when it can't be found, isn't one of those, doesn't
   *     implement {@link ProcessorPlugin}, or can't be created
   */
  public static StreamFrame apply(StreamFrame input, String className, List<String> keys, OutputMode mode,
      String timeout, Map<String, String> options, ClassLoader loader) {
    return load(className, options, loader).apply(input, keys, mode, timeout);
  }

  /**
   * Loads and creates the class {@code className} from {@code loader}, checking that it is a processor Sluice can
   * apply, before any query starts.
   *
   * @throws IllegalArgumentException naming the class when it can't be found, isn't a {@link StatefulProcessor} or
   *     {@link FlatMapGroupsWithStateFunction}, doesn't implement {@link ProcessorPlugin}, or can't be created
   */
  public static Loaded load(String className, Map<String, String> options, ClassLoader loader) {
    Object instance = instantiate(className, options, loader);
    if (!(instance instanceof StatefulProcessor) && !(instance instanceof FlatMapGroupsWithStateFunction)) {
      throw new IllegalArgumentException("Processor class " + className + " is neither a "
          + StatefulProcessor.class.getName() + " nor a " + FlatMapGroupsWithStateFunction.class.getName());
    }
    if (!(instance instanceof ProcessorPlugin)) {
      throw new IllegalArgumentException("Processor class " + className + " must implement "
          + ProcessorPlugin.class.getName() + " to declare its output (and state) encoder");
    }
    return new Loaded(className, instance);
  }

  /** A processor created from a jar, ready to apply to a stream. */
  public static final class Loaded {
    private final String className;
    private final Object instance;

    private Loaded(String className, Object instance) {
      this.className = className;
      this.instance = instance;
    }

    /** The class name it was loaded by. */
    public String className() {
      return className;
    }

    /** The schema of the rows it emits (its output encoder's). */
    public dev.sluice.table.types.StructType outputSchema() {
      return ((ProcessorPlugin) instance).outputEncoder().schema();
    }

    /**
     * Applies it to {@code input} grouped by {@code keys} with {@code mode} and {@code timeout} (see
     * {@link Plugins#apply}).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StreamFrame apply(StreamFrame input, List<String> keys, OutputMode mode, String timeout) {
      ProcessorPlugin plugin = (ProcessorPlugin) instance;
      KeyValueGroupedFrame grouped = input.groupByKey(keys.toArray(String[]::new));
      if (instance instanceof StatefulProcessor processor) {
        return grouped.transformWithState((StatefulProcessor<Row, Row, Object>) processor, TimeMode.of(timeout),
            mode, (Encoder<Object>) plugin.outputEncoder());
      }
      return grouped.flatMapGroupsWithState((FlatMapGroupsWithStateFunction) instance, mode,
          (Encoder) plugin.stateEncoder(), (Encoder) plugin.outputEncoder(), GroupStateTimeout.of(timeout));
    }
  }

  private static Object instantiate(String className, Map<String, String> options, ClassLoader loader) {
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException("Processor class " + className + " was not found on the classpath: put its"
          + " jar in the plugins/ folder beside the config or pass it with --jars (" + e + ")", e);
    }
    try {
      try {
        Constructor<?> withOptions = type.getConstructor(Map.class);
        return withOptions.newInstance(Map.copyOf(options));
      } catch (NoSuchMethodException e) {
        return type.getConstructor().newInstance();
      }
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException("Processor class " + className + " needs a public constructor taking no"
          + " argument or a Map<String, String> of options", e);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("Creating processor " + className + " failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("Creating processor " + className + " failed: " + e, e);
    }
  }
}
