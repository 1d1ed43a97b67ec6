// The deterministic dataset: the same events, ids and timestamps on every start and in every database.
package benchline.catalog;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

public final class Dataset {
  public static final int DEFAULT_EVENTS = 100_000;
  static final long SEED = 20240101L;

  static final Instant YEAR_START = Instant.parse("2024-01-01T00:00:00Z");
  static final Instant YEAR_END = Instant.parse("2025-01-01T00:00:00Z");
  // Events just outside 2024 make the range filter matter: a query that ignored it would count them.
  static final Instant BEFORE_START = Instant.parse("2023-12-01T00:00:00Z");
  static final Instant AFTER_END = Instant.parse("2025-02-01T00:00:00Z");

  static final String[] TYPES = {
    "page.viewed", "cart.updated", "order.created", "order.paid", "order.shipped", "order.cancelled", "review.posted", "user.signed_up",
  };
  static final String[] SOURCES = {"web", "ios", "android", "partner"};

  private Dataset() {}

  /** Events outside 2024 for `inYear` events inside it: one in fifty, half before and half after. */
  public static int outside(int inYear) {
    return Math.max(2, inYear / 50);
  }

  /**
   * `inYear` events with whole-second timestamps spread uniformly over 2024, plus outside(inYear)
   * around it; ids follow time order (ties keep generation order), so id order is key order.
   */
  public static List<Event> generate(int inYear) {
    SplittableRandom rnd = new SplittableRandom(SEED);
    int out = outside(inYear);
    record Raw(long second, int seq, String type, String source, long userId, long amount) {}
    List<Raw> raw = new ArrayList<>(inYear + out);
    for (int i = 0; i < inYear + out; i++) {
      Instant from;
      Instant to;
      if (i < inYear) {
        from = YEAR_START;
        to = YEAR_END;
      } else if (i < inYear + out / 2) {
        from = BEFORE_START;
        to = YEAR_START;
      } else {
        from = YEAR_END;
        to = AFTER_END;
      }
      long second = rnd.nextLong(from.getEpochSecond(), to.getEpochSecond());
      String type = TYPES[rnd.nextInt(TYPES.length)];
      String source = SOURCES[rnd.nextInt(SOURCES.length)];
      long userId = 1 + rnd.nextInt(50_000);
      long amount = type.startsWith("order.") ? 100 + rnd.nextInt(49_901) : 0;
      raw.add(new Raw(second, i, type, source, userId, amount));
    }
    raw.sort(Comparator.comparingLong(Raw::second).thenComparingInt(Raw::seq));
    List<Event> events = new ArrayList<>(raw.size());
    long id = 1;
    for (Raw r : raw) {
      events.add(new Event(id++, Instant.ofEpochSecond(r.second()), r.type(), r.source(), r.userId(), r.amount()));
    }
    return events;
  }
}
