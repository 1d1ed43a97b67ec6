// The service's settings from its environment, checked once at start so a bad value stops it before it serves anything.
package benchline.catalog;

import java.time.Instant;
import java.util.Map;

/**
 * Ports, default page size and default range come from the environment with the seed's defaults
 * (8080, 9090, 100, 2024-01-01T00:00:00..2024-12-31T23:59:59). DATABASE_URL switches from the
 * embedded H2 database to PostgreSQL.
 */
public record Settings(
    String host,
    int port,
    int grpcPort,
    int pageSize,
    Instant dateStart,
    Instant dateEnd,
    String jdbcUrl,
    String dbUser,
    String dbPassword,
    int seedEvents) {

  public static final int MAX_PAGE_SIZE = 10_000;
  static final String H2_URL = "jdbc:h2:mem:catalog;DB_CLOSE_DELAY=-1";

  /** Reads and checks every variable; the message of the exception names the variable and what it accepts. */
  public static Settings fromEnv(Map<String, String> env) {
    String host = text(env, "HOST", "127.0.0.1");
    int port = port(env, "PORT", 8080);
    int grpcPort = port(env, "GRPC_PORT", 9090);
    if (port != 0 && port == grpcPort) {
      throw new IllegalArgumentException("PORT and GRPC_PORT are both " + port + "; give the gRPC server its own port");
    }
    int pageSize = pageSize("PAGE_SIZE", text(env, "PAGE_SIZE", "100"));
    Instant start = instant("DATE_START", text(env, "DATE_START", "2024-01-01T00:00:00"));
    Instant end = instant("DATE_END", text(env, "DATE_END", "2024-12-31T23:59:59"));
    Range.check(start, end, "DATE_START", "DATE_END");
    String url = jdbcUrl(text(env, "DATABASE_URL", ""));
    int seedEvents = integer("SEED_EVENTS", text(env, "SEED_EVENTS", String.valueOf(Dataset.DEFAULT_EVENTS)), 1, 10_000_000);
    return new Settings(host, port, grpcPort, pageSize, start, end, url,
        text(env, "DATABASE_USER", ""), text(env, "DATABASE_PASSWORD", ""), seedEvents);
  }

  public boolean embedded() {
    return jdbcUrl.startsWith("jdbc:h2:");
  }

  private static String text(Map<String, String> env, String name, String fallback) {
    String v = env.get(name);
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  private static int integer(String name, String raw, int min, int max) {
    int v;
    try {
      v = Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + raw + " is not a whole number");
    }
    if (v < min || v > max) throw new IllegalArgumentException(name + "=" + raw + " must be between " + min + " and " + max);
    return v;
  }

  private static int port(Map<String, String> env, String name, int fallback) {
    return integer(name, text(env, name, String.valueOf(fallback)), 0, 65_535);
  }

  /** The API's page size rule, shared with request checks so the service and its settings agree. */
  public static int pageSize(String name, String raw) {
    int v;
    try {
      v = Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new BadRequest(name + "=" + raw + " is not a whole number; use 1.." + MAX_PAGE_SIZE);
    }
    if (v < 1 || v > MAX_PAGE_SIZE) throw new BadRequest(name + "=" + raw + " is out of range; use 1.." + MAX_PAGE_SIZE);
    return v;
  }

  private static Instant instant(String name, String raw) {
    return Range.parseInstant(name, raw);
  }

  /** jdbc: URLs pass through; postgres://user:pw@host:port/db (the usual service URL form) becomes a JDBC URL. */
  static String jdbcUrl(String raw) {
    if (raw.isEmpty()) return H2_URL;
    if (raw.startsWith("jdbc:h2:") || raw.startsWith("jdbc:postgresql:")) return raw;
    if (raw.startsWith("postgres://") || raw.startsWith("postgresql://")) {
      java.net.URI u = java.net.URI.create(raw);
      StringBuilder jdbc = new StringBuilder("jdbc:postgresql://").append(u.getHost());
      if (u.getPort() > 0) jdbc.append(':').append(u.getPort());
      jdbc.append(u.getRawPath() == null || u.getRawPath().isEmpty() ? "/postgres" : u.getRawPath());
      String query = u.getRawQuery();
      String info = u.getRawUserInfo();
      StringBuilder params = new StringBuilder(query == null ? "" : query);
      if (info != null) {
        String[] parts = info.split(":", 2);
        params.append(params.isEmpty() ? "" : "&").append("user=").append(parts[0]);
        if (parts.length > 1) params.append("&password=").append(parts[1]);
      }
      if (!params.isEmpty()) jdbc.append('?').append(params);
      return jdbc.toString();
    }
    throw new IllegalArgumentException("DATABASE_URL=" + raw
        + " is neither a PostgreSQL URL (postgres://user:password@host:5432/db or jdbc:postgresql://...) nor an H2 JDBC URL; leave it empty for the embedded database");
  }
}
