package dev.sluice.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** The Sluice checkout the bench runs in: the folder holding {@code examples/orders/pipelines.yaml}. */
final class Checkout {
  private Checkout() {}

  /** From the working folder up (the repository root or one of its modules). */
  static Path root() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("examples/orders/pipelines.yaml"))) {
        return p;
      }
    }
    throw new IllegalStateException("examples/orders/pipelines.yaml not found above " + Path.of("").toAbsolutePath()
        + "; run the bench from the Sluice checkout");
  }
}
