package dev.sluice.orchestration;

import dev.sluice.ingestion.SluiceSession;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} at random moments across the three layers of the orders example on local disk; after the last one
 * a run to the end, and bronze, quarantine, silver and gold equal the oracle with every ledger balanced. A few kills
 * here; {@code -Pchaos} sets {@code sluice.chaos.kills.local} (200).
 */
class ChaosKillTest {
  static final int KILLS = Integer.getInteger("sluice.chaos.kills.local", 3);
  @TempDir Path dir;

  @Test
  void killedRunsAreResumedExactly() {
    OrdersScenario s = new OrdersScenario(dir, dir.resolve("warehouse").toUri().toString(), Map.of());
    s.land(4, 120);
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      KillLoop.Figures f = new KillLoop(s, s.writeConfig(""), session, Long.getLong("sluice.chaos.seed", 11L), Map.of())
          .run(KILLS, "local");
      System.out.println("chaos kill -9 (local): " + f);
    }
  }
}
