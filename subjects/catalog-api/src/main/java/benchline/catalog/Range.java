// The filtered time range every API reads: ISO-8601 bounds, both inclusive, local date-times taken as UTC.
package benchline.catalog;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

public record Range(Instant start, Instant end) {

  /** The request's bounds, or the settings' defaults where a bound is missing. */
  public static Range of(String start, String end, Settings defaults) {
    Instant s = blank(start) ? defaults.dateStart() : parseInstant("start", start);
    Instant e = blank(end) ? defaults.dateEnd() : parseInstant("end", end);
    check(s, e, "start", "end");
    return new Range(s, e);
  }

  static void check(Instant start, Instant end, String startName, String endName) {
    if (start.isAfter(end)) {
      throw new BadRequest("date range is inverted: " + startName + " " + start + " is after " + endName + " " + end
          + "; swap them");
    }
  }

  /** "2024-01-01T00:00:00" (UTC), "2024-01-01T00:00:00Z" or with an offset; anything else is refused by name. */
  public static Instant parseInstant(String name, String raw) {
    String v = raw.trim();
    try {
      return OffsetDateTime.parse(v).toInstant();
    } catch (DateTimeParseException notOffset) {
      try {
        return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        throw new BadRequest(name + "=" + raw + " is not an ISO-8601 date-time such as 2024-01-01T00:00:00 (UTC) or 2024-01-01T00:00:00Z");
      }
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
