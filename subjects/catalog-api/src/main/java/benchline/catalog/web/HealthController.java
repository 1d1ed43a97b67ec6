// Health check for the runner and Docker: 200 once the events table is seeded and the gRPC port is open.
package benchline.catalog.web;

import benchline.catalog.EventRepository;
import benchline.catalog.Settings;
import benchline.catalog.rpc.GrpcServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class HealthController {
  private final EventRepository repo;
  private final Settings settings;
  private final GrpcServer grpc;

  public HealthController(EventRepository repo, Settings settings, GrpcServer grpc) {
    this.repo = repo;
    this.settings = settings;
    this.grpc = grpc;
  }

  /** 503 while the gRPC server is not listening: a runner that waits for 200 may then use both ports. */
  @GetMapping("/health")
  public ResponseEntity<Map<String, Object>> health() {
    boolean up = grpc.isRunning();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", up ? "UP" : "DOWN");
    out.put("database", settings.embedded() ? "h2" : "postgresql");
    out.put("events", repo.total());
    out.put("grpcPort", up ? grpc.port() : settings.grpcPort());
    out.put("pageSize", settings.pageSize());
    out.put("dateStart", settings.dateStart().toString());
    out.put("dateEnd", settings.dateEnd().toString());
    return ResponseEntity.status(up ? 200 : 503).body(out);
  }
}
