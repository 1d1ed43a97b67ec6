// The seeded dataset: 100,000 events in 2024 plus a few outside it, ids in key order, the same on every start.
package benchline.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetTest {
  private static final List<Event> EVENTS = Dataset.generate(Dataset.DEFAULT_EVENTS);

  @Test
  void holdsOneHundredThousandEventsIn2024AndTwoThousandAroundIt() {
    Instant start = Instant.parse("2024-01-01T00:00:00Z");
    Instant end = Instant.parse("2024-12-31T23:59:59Z");
    long inYear = EVENTS.stream().filter(e -> !e.occurredAt().isBefore(start) && !e.occurredAt().isAfter(end)).count();
    assertEquals(100_000, inYear);
    assertEquals(102_000, EVENTS.size());
  }

  @Test
  void idsFollowTheKeyOrderSoIdOrderIsTimeOrder() {
    for (int i = 1; i < EVENTS.size(); i++) {
      Event a = EVENTS.get(i - 1);
      Event b = EVENTS.get(i);
      assertEquals(a.id() + 1, b.id());
      assertTrue(!b.occurredAt().isBefore(a.occurredAt()), "event " + b.id() + " is earlier than " + a.id());
    }
  }

  @Test
  void isTheSameOnEveryGeneration() {
    assertEquals(EVENTS, Dataset.generate(Dataset.DEFAULT_EVENTS));
    assertEquals(new Event(1001, Instant.parse("2024-01-01T00:04:05Z"), "order.created", "web", 21842, 27500), EVENTS.get(1000));
  }
}
