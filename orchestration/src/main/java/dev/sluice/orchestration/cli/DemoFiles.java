package dev.sluice.orchestration.cli;

import dev.sluice.orchestration.demo.OrdersGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The demo's folder: landing files ({@code landing/orders}, {@code landing/customers}), the warehouse and the
 * config. The first landing is the orders sample of {@code examples/orders/data} (or, away from a checkout,
 * the same data regenerated: {@link OrdersGenerator} seed 4, 5 files of 400 lines, 10,000 customers); each
 * later one is the generator's next file.
 */
final class DemoFiles {
  static final long SEED = 4;
  static final int SAMPLE_FILES = 5;
  static final int LINES_PER_FILE = 400;
  static final int CUSTOMERS = 10_000;
  /** {@code examples/orders/pipelines.yaml}, copied onto the classpath at build time. */
  static final String CONFIG_RESOURCE = "/dev/sluice/orchestration/cli/orders/pipelines.yaml";
  private static final Pattern ORDERS_FILE = Pattern.compile("orders-(\\d+)\\.jsonl");

  private final Path root;

  DemoFiles(Path root) {
    this.root = root;
  }

  Path root() {
    return root;
  }

  Path orders() {
    return root.resolve("landing/orders");
  }

  Path customers() {
    return root.resolve("landing/customers");
  }

  Path warehouse() {
    return root.resolve("warehouse");
  }

  /** Lands the sample (first run) or the next file; returns the names of the files landed. */
  List<String> land() {
    try {
      Files.createDirectories(orders());
      int existing = landedFiles();
      if (existing == 0) {
        return landSample();
      }
      return List.of(landNext(existing));
    } catch (IOException e) {
      throw CliException.failed("Cannot write the demo's landing files under " + root + ": " + e.getMessage()
          + ". Choose another folder with --dir.");
    }
  }

  private int landedFiles() throws IOException {
    try (Stream<Path> s = Files.list(orders())) {
      return (int) s.filter(p -> ORDERS_FILE.matcher(p.getFileName().toString()).matches()).count();
    }
  }

  private List<String> landSample() throws IOException {
    Optional<Path> sample = sampleData();
    if (sample.isEmpty()) {
      OrdersGenerator g = new OrdersGenerator(SEED);
      g.writeOrders(orders(), 0, SAMPLE_FILES, LINES_PER_FILE);
      g.writeCustomers(customers(), CUSTOMERS);
    } else {
      Files.createDirectories(customers());
      Files.copy(sample.get().resolve("customers/customers.jsonl"), customers().resolve("customers.jsonl"),
          StandardCopyOption.REPLACE_EXISTING);
      try (Stream<Path> s = Files.list(sample.get().resolve("input"))) {
        for (Path f : s.sorted().toList()) {
          Matcher m = ORDERS_FILE.matcher(f.getFileName().toString());
          if (m.matches()) {
            Path tmp = orders().resolve("." + f.getFileName() + ".tmp");
            Files.copy(f, tmp, StandardCopyOption.REPLACE_EXISTING);
            // Discovery takes files in modification-time order: keep the generator's arrival order.
            tmp.toFile().setLastModified(mtime(Integer.parseInt(m.group(1))));
            Files.move(tmp, orders().resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
          }
        }
      }
    }
    try (Stream<Path> s = Files.list(orders())) {
      return s.map(p -> p.getFileName().toString()).filter(n -> ORDERS_FILE.matcher(n).matches()).sorted().toList();
    }
  }

  /** Regenerates the stream up to file {@code index} (deterministic) and lands only that file. */
  private String landNext(int index) throws IOException {
    Path scratch = Files.createTempDirectory(root, ".generate-");
    try {
      new OrdersGenerator(SEED).writeOrders(scratch, 0, index + 1, LINES_PER_FILE);
      String name = String.format(java.util.Locale.ROOT, "orders-%05d.jsonl", index);
      Path landed = orders().resolve(name);
      Files.move(scratch.resolve(name), landed, StandardCopyOption.ATOMIC_MOVE);
      landed.toFile().setLastModified(mtime(index));
      return name;
    } finally {
      deleteTree(scratch);
    }
  }

  private static long mtime(int index) {
    return 1_700_000_000_000L + index * 1000L;
  }

  /** {@code examples/orders/data} of a checkout: from the working directory or above the running code. */
  static Optional<Path> sampleData() {
    List<Path> starts = new ArrayList<>();
    starts.add(Path.of("").toAbsolutePath());
    try {
      starts.add(Path.of(DemoFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (URISyntaxException | SecurityException | NullPointerException e) {
      // no code location: the working directory is the only place to look
    }
    for (Path start : starts) {
      for (Path p = start; p != null; p = p.getParent()) {
        Path data = p.resolve("examples/orders/data");
        if (Files.isRegularFile(data.resolve("customers/customers.jsonl")) && Files.isDirectory(data.resolve("input"))) {
          return Optional.of(data);
        }
      }
    }
    return Optional.empty();
  }

  /** Writes {@code pipelines.yaml}: the bundled orders config with its paths set to this folder. */
  Path writeConfig() {
    String template;
    try (InputStream in = DemoFiles.class.getResourceAsStream(CONFIG_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("The orders config " + CONFIG_RESOURCE + " is missing from the sluice "
            + "build; rebuild with mvn -B -ntp -DskipTests package");
      }
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String text = "# Written by `sluice demo`: examples/orders/pipelines.yaml with its paths set to this folder.\n"
        + set(set(set(template, "SLUICE_WAREHOUSE", warehouse().toUri().toString().replaceAll("/$", "")),
            "ORDERS_INPUT", orders().toString()), "CUSTOMERS_INPUT", customers().toString());
    Path file = root.resolve("pipelines.yaml");
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw CliException.failed("Cannot write " + file + ": " + e.getMessage() + ". Choose another folder with --dir.");
    }
    return file;
  }

  /** Replaces {@code ${env:NAME}} / {@code ${env:NAME:-default}} with {@code value} as a YAML string. */
  private static String set(String yaml, String name, String value) {
    String quoted = "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("${", "$${") + "\"";
    Matcher m = Pattern.compile("\\$\\{env:" + name + "(:-[^}]*)?}").matcher(yaml);
    if (!m.find()) {
      throw new IllegalStateException("The bundled orders config no longer uses ${env:" + name + "}; update "
          + DemoFiles.class.getName());
    }
    return m.replaceAll(Matcher.quoteReplacement(quoted));
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
