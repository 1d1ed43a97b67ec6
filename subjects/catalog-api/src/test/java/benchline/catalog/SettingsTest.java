// Settings and request checks: the seed's defaults, and refusals that name the variable and what it accepts.
package benchline.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

  @Test
  void emptyEnvironmentGivesTheSeedsDefaults() {
    Settings s = Settings.fromEnv(Map.of());
    assertEquals(8080, s.port());
    assertEquals(9090, s.grpcPort());
    assertEquals(100, s.pageSize());
    assertEquals(Instant.parse("2024-01-01T00:00:00Z"), s.dateStart());
    assertEquals(Instant.parse("2024-12-31T23:59:59Z"), s.dateEnd());
    assertEquals("jdbc:h2:mem:catalog;DB_CLOSE_DELAY=-1", s.jdbcUrl());
  }

  @Test
  void pageSizeZeroAndAboveTenThousandAreRefusedByName() {
    assertEquals("PAGE_SIZE=0 is out of range; use 1..10000",
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("PAGE_SIZE", "0"))).getMessage());
    assertEquals("PAGE_SIZE=10001 is out of range; use 1..10000",
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("PAGE_SIZE", "10001"))).getMessage());
    assertEquals(10_000, Settings.fromEnv(Map.of("PAGE_SIZE", "10000")).pageSize());
  }

  @Test
  void anInvertedRangeIsRefusedWithBothBounds() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Settings.fromEnv(Map.of("DATE_START", "2024-12-31T00:00:00", "DATE_END", "2024-01-01T00:00:00")));
    assertEquals("date range is inverted: DATE_START 2024-12-31T00:00:00Z is after DATE_END 2024-01-01T00:00:00Z; swap them", e.getMessage());
  }

  @Test
  void datesWithoutAZoneAreUtcAndOffsetsAreHonoured() {
    assertEquals(Instant.parse("2024-06-01T10:00:00Z"), Range.parseInstant("start", "2024-06-01T10:00:00"));
    assertEquals(Instant.parse("2024-06-01T08:00:00Z"), Range.parseInstant("start", "2024-06-01T10:00:00+02:00"));
    assertEquals("start=2024-06-01 is not an ISO-8601 date-time such as 2024-01-01T00:00:00 (UTC) or 2024-01-01T00:00:00Z",
        assertThrows(BadRequest.class, () -> Range.parseInstant("start", "2024-06-01")).getMessage());
  }

  @Test
  void aPostgresServiceUrlBecomesAJdbcUrlWithItsCredentials() {
    assertEquals("jdbc:postgresql://db.internal:5433/catalog?sslmode=disable&user=bench&password=s3cret",
        Settings.jdbcUrl("postgres://bench:s3cret@db.internal:5433/catalog?sslmode=disable"));
    assertEquals("jdbc:postgresql://localhost:5432/x", Settings.jdbcUrl("jdbc:postgresql://localhost:5432/x"));
    assertThrows(IllegalArgumentException.class, () -> Settings.jdbcUrl("mysql://localhost/x"));
  }
}
