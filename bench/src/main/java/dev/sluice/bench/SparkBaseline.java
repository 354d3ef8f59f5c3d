package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;

/**
 * The Spark reference ({@code shared/spark-baseline}: Spark 3.5 + delta-spark, same medallion, same data
 * generator): where it is, and a built copy of it. An unbuilt one (the shared folder may be read-only) is
 * copied to {@code <work>/spark-baseline} and built there once ({@code mvn -q -DskipTests package}, ~225 MB
 * from Maven Central).
 */
final class SparkBaseline {
  private SparkBaseline() {}

  /** {@code shared/spark-baseline} beside the checkout (or beside one of its parent folders), when there is one. */
  static Optional<Path> locate(Path repo) {
    for (Path p = repo.toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared/spark-baseline");
      if (Files.isRegularFile(candidate.resolve("run.sh"))) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  static boolean built(Path home) {
    return Files.isRegularFile(home.resolve("target/spark-baseline.jar")) && Files.isDirectory(home.resolve("target/lib"));
  }

  /** A built copy of {@code home}: itself when built, else a copy under {@code work}, built once. */
  static Path builtCopy(Path home, Path work) throws IOException, InterruptedException {
    if (built(home)) {
      return home;
    }
    Path copy = work.resolve("spark-baseline");
    if (built(copy)) {
      return copy;
    }
    copyTree(home, copy);
    System.err.println("bench: building the Spark baseline in " + copy + " (mvn -q -DskipTests package; once)...");
    Process p = new ProcessBuilder("mvn", "-B", "-ntp", "-q", "-DskipTests", "package").directory(copy.toFile())
        .inheritIO().start();
    if (p.waitFor() != 0 || !built(copy)) {
      throw new IllegalStateException("Building the Spark baseline in " + copy + " failed (output above); build it by"
          + " hand there with `mvn -DskipTests package`, point --spark-home at a built copy, or pass --skip-spark");
    }
    return copy;
  }

  /** {@code run.sh gen}: writes the orders data set of {@code events} events into {@code data}. */
  static void generate(Path home, Path data, long events) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(List.of(home.resolve("run.sh").toString(), "gen", "--out", data.toString(),
        "--events", Long.toString(events))).directory(home.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("The Spark baseline's generator failed (`" + home.resolve("run.sh") + " gen --out "
          + data + "`, output above); pass --generator sluice to use Sluice's own generator");
    }
  }

  /** The command of one measured Spark run of the initial medallion (no incremental or micro-batch phase). */
  static List<String> runCommand(Path home, Path data, Path out) {
    return List.of(home.resolve("run.sh").toString(), "run", "--data", data.toString(), "--out", out.toString(),
        "--no-incremental", "--no-overhead");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        if (dir.getFileName() != null && (dir.getFileName().toString().equals("target")
            || dir.getFileName().toString().equals("spark-warehouse")) && !dir.equals(from)) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.COPY_ATTRIBUTES);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
