// SQL for the three reads (count, offset page, keyset page) and the seeding of the events table, for H2 and PostgreSQL alike.
package benchline.catalog;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

public class EventRepository {
  private static final Logger log = LoggerFactory.getLogger(EventRepository.class);
  private static final String COLUMNS = "id, occurred_at, type, source, user_id, amount_cents";
  private static final RowMapper<Event> ROW = EventRepository::row;

  private final JdbcTemplate jdbc;

  public EventRepository(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  // Timestamps are stored as UTC wall-clock TIMESTAMPs, which both databases compare without zone rules.
  static LocalDateTime utc(Instant i) {
    return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
  }

  private static Event row(ResultSet rs, int n) throws SQLException {
    return new Event(rs.getLong(1), rs.getObject(2, LocalDateTime.class).toInstant(ZoneOffset.UTC),
        rs.getString(3), rs.getString(4), rs.getLong(5), rs.getLong(6));
  }

  public long count(Range r) {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM catalog_events WHERE occurred_at BETWEEN ? AND ?", Long.class,
        utc(r.start()), utc(r.end()));
    return n == null ? 0 : n;
  }

  /** Page `page` of `size` by OFFSET: the database walks past page x size rows first, which is what deep pages cost. */
  public List<Event> offsetPage(Range r, long page, int size) {
    return jdbc.query("SELECT " + COLUMNS + " FROM catalog_events WHERE occurred_at BETWEEN ? AND ? "
        + "ORDER BY occurred_at, id OFFSET ? ROWS FETCH NEXT ? ROWS ONLY", ROW,
        utc(r.start()), utc(r.end()), page * size, size);
  }

  /**
   * Up to `limit` events after `after` (or from the range start), in key order. The lower time bound
   * is folded into one value so both databases seek the (occurred_at, id) index instead of scanning.
   */
  public List<Event> keysetPage(Range r, Cursor after, int limit) {
    if (after == null) {
      return jdbc.query("SELECT " + COLUMNS + " FROM catalog_events WHERE occurred_at BETWEEN ? AND ? "
          + "ORDER BY occurred_at, id FETCH FIRST ? ROWS ONLY", ROW, utc(r.start()), utc(r.end()), limit);
    }
    if (after.at().isBefore(r.start())) return keysetPage(r, null, limit);
    LocalDateTime at = utc(after.at());
    return jdbc.query("SELECT " + COLUMNS + " FROM catalog_events WHERE occurred_at BETWEEN ? AND ? "
        + "AND (occurred_at > ? OR id > ?) ORDER BY occurred_at, id FETCH FIRST ? ROWS ONLY", ROW,
        at, utc(r.end()), at, after.id(), limit);
  }

  public Event byId(long id) {
    List<Event> found = jdbc.query("SELECT " + COLUMNS + " FROM catalog_events WHERE id = ?", ROW, id);
    return found.isEmpty() ? null : found.get(0);
  }

  public long total() {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM catalog_events", Long.class);
    return n == null ? 0 : n;
  }

  /**
   * Creates the table and index if missing and (re)fills it with Dataset.generate(inYear) unless it
   * already holds exactly that many rows (a PostgreSQL database keeps them between starts).
   */
  public long seed(int inYear) {
    jdbc.execute("CREATE TABLE IF NOT EXISTS catalog_events (id BIGINT PRIMARY KEY, occurred_at TIMESTAMP NOT NULL, "
        + "type VARCHAR(32) NOT NULL, source VARCHAR(16) NOT NULL, user_id BIGINT NOT NULL, amount_cents BIGINT NOT NULL)");
    jdbc.execute("CREATE INDEX IF NOT EXISTS catalog_events_key ON catalog_events (occurred_at, id)");
    long expected = (long) inYear + Dataset.outside(inYear);
    long have = total();
    if (have == expected && byId(expected) != null) {
      log.info("catalog_events already holds {} rows; kept", have);
      return have;
    }
    long started = System.nanoTime();
    List<Event> events = Dataset.generate(inYear);
    jdbc.update("DELETE FROM catalog_events");
    final int batch = 2_000;
    for (int from = 0; from < events.size(); from += batch) {
      List<Event> chunk = events.subList(from, Math.min(events.size(), from + batch));
      jdbc.batchUpdate("INSERT INTO catalog_events (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)", chunk, chunk.size(), (ps, e) -> {
        ps.setLong(1, e.id());
        ps.setObject(2, utc(e.occurredAt()));
        ps.setString(3, e.type());
        ps.setString(4, e.source());
        ps.setLong(5, e.userId());
        ps.setLong(6, e.amountCents());
      });
    }
    // Fresh statistics let PostgreSQL pick the index for range queries right away.
    if (!jdbc.getDataSource().toString().contains("h2")) {
      try {
        jdbc.execute("ANALYZE catalog_events");
      } catch (RuntimeException ignored) {
        // Not every database knows ANALYZE; the queries stay correct without it.
      }
    }
    log.info("seeded catalog_events with {} rows in {} ms", events.size(), (System.nanoTime() - started) / 1_000_000);
    return events.size();
  }
}
