package dev.sluice.ingestion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link StatefulRecoveryScenarios} on local disk. */
class StatefulRecoveryTest extends StatefulRecoveryScenarios {
  @TempDir
  Path dir;
  private long mtime = 1_700_000_000_000L;

  @Override
  SluiceSession session() {
    return SluiceSession.create();
  }

  @Override
  String root(String name) {
    return dir.resolve(name).toString();
  }

  @Override
  void put(SluiceSession session, String folder, String name, byte[] bytes) {
    try {
      Path tmp = Files.write(Files.createDirectories(Path.of(folder)).resolve(".tmp-" + name), bytes);
      // distinct modification times keep discovery order = landing order; the move makes it visible whole
      tmp.toFile().setLastModified(mtime += 1000);
      Files.move(tmp, tmp.resolveSibling(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
