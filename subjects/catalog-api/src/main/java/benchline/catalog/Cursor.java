// The keyset cursor: the key (occurred_at, id) of the last event a client saw, written "<instant>_<id>".
package benchline.catalog;

import java.time.Instant;
import java.time.format.DateTimeParseException;

public record Cursor(Instant at, long id) {

  public static Cursor after(Event e) {
    return new Cursor(e.occurredAt(), e.id());
  }

  public String encode() {
    return at + "_" + id;
  }

  /** Null for an absent cursor; a malformed one is a bad request that shows the expected shape. */
  public static Cursor parse(String raw) {
    if (raw == null || raw.isBlank()) return null;
    int cut = raw.lastIndexOf('_');
    try {
      if (cut < 1) throw new IllegalArgumentException();
      return new Cursor(Instant.parse(raw.substring(0, cut)), Long.parseLong(raw.substring(cut + 1)));
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new BadRequest("cursor=" + raw + " is not a cursor of this API; pass the nextCursor of the previous page (shape <instant>_<id>, e.g. 2024-03-01T10:00:00Z_4242)");
    }
  }
}
