// REST/Stream API: keyset pages as plain JSON ({"items": [...], "nextCursor": ...}), with no counts and no links.
package benchline.catalog.web;

import benchline.catalog.Cursor;
import benchline.catalog.Event;
import benchline.catalog.EventRepository;
import benchline.catalog.Pages;
import benchline.catalog.Range;
import benchline.catalog.Settings;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/stream/events")
public class StreamController {
  private final EventRepository repo;
  private final Settings settings;

  public StreamController(EventRepository repo, Settings settings) {
    this.repo = repo;
    this.settings = settings;
  }

  /** nextCursor is null on the last page; passing it back as `cursor` continues after the last event seen. */
  public record KeysetPage(List<Event> items, String nextCursor) {}

  @GetMapping
  public KeysetPage list(
      @RequestParam(required = false) String start,
      @RequestParam(required = false) String end,
      @RequestParam(required = false) String size,
      @RequestParam(required = false) String cursor) {
    Range range = Range.of(start, end, settings);
    int pageSize = Pages.size(size, settings);
    Pages.Keyset page = Pages.keyset(repo, range, Cursor.parse(cursor), pageSize);
    return new KeysetPage(page.items(), page.next() == null ? null : page.next().encode());
  }
}
