package dev.sluice.table.storage;

import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link LocalObjectStoreTest}: races the parent to create one key per round.
 * Both processes start round r at the same wall-clock instant; prints "WON r" for each round won.
 */
public final class CreateRaceMain {
  private CreateRaceMain() {}

  public static void main(String[] args) throws Exception {
    LocalObjectStore store = new LocalObjectStore(Path.of(args[0]));
    String name = args[1];
    int rounds = Integer.parseInt(args[2]);
    long slotMs = Long.parseLong(args[3]);
    // warm up the classes a create uses, so the first rounds really race
    store.create("warmup/" + name, new byte[0]);
    System.out.println("READY");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    long startAt = Long.parseLong(in.readLine().trim());
    for (int round : race(store, name, rounds, slotMs, startAt)) {
      System.out.println("WON " + round);
    }
    System.out.flush();
  }

  static String keyOf(int round) {
    return String.format("race/_delta_log/%020d.json", round);
  }

  /** The rounds this writer won. */
  static List<Integer> race(ObjectStore store, String name, int rounds, long slotMs, long startAt)
      throws InterruptedException {
    List<Integer> won = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      long wait = startAt + r * slotMs - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      try {
        store.create(keyOf(r), name.getBytes(StandardCharsets.UTF_8));
        won.add(r);
      } catch (ObjectAlreadyExistsException lost) {
        // the other process won this round
      }
    }
    return won;
  }
}
