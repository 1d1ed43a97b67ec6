// Entry point: checks the environment, seeds the database, then serves HTTP (HATEOAS and REST/Stream) and gRPC.
package benchline.catalog;

import benchline.catalog.rpc.CatalogGrpcService;
import benchline.catalog.rpc.GrpcServer;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

@SpringBootApplication
public class CatalogApplication {
  private static Settings settings;

  public static void main(String[] args) {
    try {
      settings = Settings.fromEnv(System.getenv());
    } catch (IllegalArgumentException e) {
      // Refused before anything listens, so a bad benchmark parameter never reaches a load tool.
      System.err.println("catalog-api: " + e.getMessage());
      System.exit(2);
    }
    SpringApplication app = new SpringApplication(CatalogApplication.class);
    Map<String, Object> props = new HashMap<>();
    props.put("server.port", settings.port());
    props.put("server.address", settings.host());
    props.put("spring.datasource.url", settings.jdbcUrl());
    if (!settings.dbUser().isEmpty()) props.put("spring.datasource.username", settings.dbUser());
    if (!settings.dbPassword().isEmpty()) props.put("spring.datasource.password", settings.dbPassword());
    app.setDefaultProperties(props);
    app.run(args);
  }

  @Bean
  Settings settings() {
    return settings != null ? settings : Settings.fromEnv(System.getenv());
  }

  /** Seeding happens while the context starts, before the HTTP port opens, so /health means "data is there". */
  @Bean
  EventRepository eventRepository(DataSource dataSource, Settings s) {
    EventRepository repo = new EventRepository(new JdbcTemplate(dataSource));
    repo.seed(s.seedEvents());
    return repo;
  }

  @Bean
  CatalogGrpcService catalogGrpcService(EventRepository repo, Settings s) {
    return new CatalogGrpcService(repo, s);
  }

  @Bean
  GrpcServer grpcServer(Settings s, CatalogGrpcService service) {
    return new GrpcServer(s, service);
  }

  /** One line that says the service is ready and where, for logs and for people. */
  @Bean
  ApplicationListener<ApplicationReadyEvent> readyLine(Environment env, GrpcServer grpc, EventRepository repo, Settings s) {
    return event -> System.out.printf("catalog-api ready: http://%s:%s grpc %s:%d db=%s events=%d pageSize=%d range=%s..%s%n",
        s.host(), env.getProperty("local.server.port"), s.host(), grpc.port(), s.embedded() ? "h2" : "postgresql",
        repo.total(), s.pageSize(), s.dateStart(), s.dateEnd());
  }
}
