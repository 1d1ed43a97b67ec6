// The keyset page logic shared by REST/Stream and gRPC: fetch one extra row to know whether a next page exists.
package benchline.catalog;

import java.util.List;

public final class Pages {
  private Pages() {}

  /** One keyset page and the cursor of the next one (null on the last page). */
  public record Keyset(List<Event> items, Cursor next) {}

  /** Asking for size + 1 rows tells "last page" apart without a count or a trailing empty page. */
  public static Keyset keyset(EventRepository repo, Range range, Cursor after, int size) {
    List<Event> rows = repo.keysetPage(range, after, size + 1);
    if (rows.size() <= size) return new Keyset(rows, null);
    List<Event> page = rows.subList(0, size);
    return new Keyset(page, Cursor.after(page.get(size - 1)));
  }

  /** The page size of a request: the settings' default when absent, else 1..MAX_PAGE_SIZE. */
  public static int size(String raw, Settings settings) {
    if (raw == null || raw.isBlank()) return settings.pageSize();
    return Settings.pageSize("size", raw);
  }

  public static long pageNumber(String raw) {
    if (raw == null || raw.isBlank()) return 0;
    long v;
    try {
      v = Long.parseLong(raw.trim());
    } catch (NumberFormatException e) {
      throw new BadRequest("page=" + raw + " is not a whole number; pages count from 0");
    }
    if (v < 0) throw new BadRequest("page=" + raw + " is negative; pages count from 0");
    return v;
  }
}
