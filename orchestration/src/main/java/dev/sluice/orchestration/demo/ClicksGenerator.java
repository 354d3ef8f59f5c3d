package dev.sluice.orchestration.demo;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Demo click events for {@code examples/clickstream}: JSON values {@code event_id, user_id, page, event_time}, keyed
 * by user. Event time advances 0–20 s per event across {@code users} users, so a user's clicks fall into several
 * 10-minute-gap sessions. About 5 % of the records repeat an earlier event (a producer retry, a few records later),
 * 2 % are not JSON and 2 % lack {@code user_id}. The same seed gives the same records.
 */
public final class ClicksGenerator {
  private static final String[] PAGES = {"/", "/search", "/product", "/cart", "/checkout", "/help"};

  /** One record to send: its key (null for malformed records) and its value. */
  public record Click(String key, String value) {}

  private final Random random;
  private final int users;
  private final List<Click> recent = new ArrayList<>();
  private Instant time;
  private long next;

  public ClicksGenerator(long seed, int users, Instant start) {
    this.random = new Random(seed);
    this.users = users;
    this.time = start.truncatedTo(ChronoUnit.MILLIS);
  }

  /** The next record. */
  public Click next() {
    int roll = random.nextInt(100);
    if (roll < 5 && !recent.isEmpty()) {
      return recent.get(random.nextInt(recent.size()));
    }
    if (roll < 7) {
      return new Click(null, "click #" + next++ + " {broken");
    }
    time = time.plusMillis(random.nextInt(20_000));
    String id = "e" + next++;
    String user = "u" + random.nextInt(users);
    String page = PAGES[random.nextInt(PAGES.length)];
    Click click = roll < 9
        ? new Click(null, "{\"event_id\":\"" + id + "\",\"page\":\"" + page + "\",\"event_time\":\"" + time + "\"}")
        : new Click(user, "{\"event_id\":\"" + id + "\",\"user_id\":\"" + user + "\",\"page\":\"" + page
            + "\",\"event_time\":\"" + time + "\"}");
    recent.add(click);
    if (recent.size() > 20) {
      recent.remove(0);
    }
    return click;
  }
}
