// Starts the service on grpc-java's Netty transport or on Helidon 4's web server, and stops it on SIGTERM.
package benchline.grpcstreaming;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.grpc.GrpcRouting;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

final class Servers {
  private Servers() {}

  /** Serves until the JVM is asked to stop; prints one "listening" line on stderr once bound. */
  static void run(Impl impl, int port, String host) throws Exception {
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable stop;
    int bound;
    switch (impl) {
      case NETTY -> {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port));
        String window = System.getenv("NETTY_FLOW_CONTROL_WINDOW");
        // A fixed window (BDP probing off) instead of grpc-java's default; see subject.yaml for why.
        if (window != null && !window.isBlank()) {
          int bytes;
          try {
            bytes = Integer.parseInt(window.trim());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("NETTY_FLOW_CONTROL_WINDOW=\"" + window + "\" is not a number of bytes (e.g. 4194304)");
          }
          builder.flowControlWindow(bytes);
          System.err.println("grpc-streaming server (netty): HTTP/2 flow-control window fixed at " + window.trim() + " bytes (NETTY_FLOW_CONTROL_WINDOW)");
        }
        Server server = builder
            .addService(new StreamBenchService(impl))
            .maxInboundMessageSize(StreamBenchService.MAX_MESSAGE_BYTES)
            .build()
            .start();
        bound = server.getPort();
        stop = () -> {
          server.shutdown();
          try {
            if (!server.awaitTermination(3, TimeUnit.SECONDS)) server.shutdownNow();
          } catch (InterruptedException e) {
            server.shutdownNow();
          }
        };
      }
      case HELIDON -> {
        // Both stacks keep their defaults (flow-control windows, frame sizes, Nagle): the seed measured
        // them as they come. HELIDON_TCP_NODELAY=true turns Nagle off, to test what it costs.
        boolean noDelay = Boolean.parseBoolean(System.getenv().getOrDefault("HELIDON_TCP_NODELAY", "false"));
        WebServer server = WebServer.builder()
            .host(host)
            .port(port)
            .connectionOptions(o -> {
              if (noDelay) o.tcpNoDelay(true);
            })
            .addRouting(GrpcRouting.builder().service(new StreamBenchService(impl)))
            .build()
            .start();
        bound = server.port();
        stop = server::stop;
        if (noDelay) System.err.println("grpc-streaming server (helidon): TCP_NODELAY on (HELIDON_TCP_NODELAY=true)");
      }
      default -> throw new IllegalStateException(impl.toString());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stop.run();
      stopped.countDown();
    }, "grpc-streaming-stop"));
    System.err.println("grpc-streaming server (" + impl.id() + ") listening on " + host + ":" + bound);
    stopped.await();
  }
}
