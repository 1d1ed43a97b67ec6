// The keyset cursor: "<instant>_<id>" round-trips, and anything else is a bad request that shows the expected shape.
package benchline.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CursorTest {

  @Test
  void encodesTheLastKeyAndParsesItBack() {
    Cursor c = new Cursor(Instant.parse("2024-03-01T10:00:00Z"), 4242);
    assertEquals("2024-03-01T10:00:00Z_4242", c.encode());
    assertEquals(c, Cursor.parse(c.encode()));
  }

  @Test
  void anAbsentCursorMeansTheFirstPage() {
    assertNull(Cursor.parse(null));
    assertNull(Cursor.parse(""));
  }

  @Test
  void aForeignCursorIsRefusedWithTheExpectedShape() {
    for (String bad : new String[] {"abc", "_12", "2024-03-01T10:00:00Z_x", "12_2024"}) {
      BadRequest e = assertThrows(BadRequest.class, () -> Cursor.parse(bad));
      assertEquals("cursor=" + bad + " is not a cursor of this API; pass the nextCursor of the previous page (shape <instant>_<id>, e.g. 2024-03-01T10:00:00Z_4242)", e.getMessage());
    }
  }
}
