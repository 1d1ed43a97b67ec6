// Runs the gRPC server on its own port beside the HTTP server, started and stopped with the Spring context.
package benchline.catalog.rpc;

import benchline.catalog.Settings;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

public class GrpcServer implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(GrpcServer.class);
  private final Settings settings;
  private final CatalogGrpcService service;
  private Server server;

  public GrpcServer(Settings settings, CatalogGrpcService service) {
    this.settings = settings;
    this.service = service;
  }

  @Override
  public void start() {
    HealthStatusManager health = new HealthStatusManager();
    server = NettyServerBuilder.forAddress(new InetSocketAddress(settings.host(), settings.grpcPort()))
        .addService(ServerInterceptors.intercept(service, new MessageSizeInterceptor()))
        .addService(ProtoReflectionServiceV1.newInstance())
        .addService(health.getHealthService())
        // A whole-year stream page of 10,000 events is ~0.5 MB; allow requests and answers well above the 4 MB default.
        .maxInboundMessageSize(16 * 1024 * 1024)
        .build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("gRPC server could not listen on " + settings.host() + ":" + settings.grpcPort() + " (GRPC_PORT)", e);
    }
    log.info("gRPC listening on {}:{}", settings.host(), server.getPort());
  }

  public int port() {
    return server.getPort();
  }

  /** Phase 0 starts before the HTTP server (a late phase), so /health never answers while gRPC is still closed. */
  @Override
  public int getPhase() {
    return 0;
  }

  @Override
  public void stop() {
    if (server == null) return;
    server.shutdown();
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) server.shutdownNow();
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return server != null && !server.isShutdown();
  }
}
