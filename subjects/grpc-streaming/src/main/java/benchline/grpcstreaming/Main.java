// Command line of the subject: `server <netty|helidon> <port>` or `client <netty|helidon> <host:port|url> <numMsg> <sizeKB>`.
package benchline.grpcstreaming;

import java.util.Locale;

public final class Main {
  static final String USAGE = """
      usage:
        server <netty|helidon> <port>
        client <netty|helidon> <host:port|url> <numMsg> <sizeKB>
      system properties (client):
        -Dbenchline.inflight=4     messages sent but not yet acknowledged, at most
        -Dbenchline.warmup=0       messages streamed (unmeasured) before the measured stream
        -Dbenchline.deadline=600   seconds the whole client run may take
        -Dbenchline.mode=unary     unary: a Send call per message; stream: one bidirectional stream, an ack per message
      environment (server):
        BIND_HOST=127.0.0.1        address to listen on (0.0.0.0 in containers and namespaces)
        HELIDON_TCP_NODELAY=false  true turns Nagle's algorithm off on the Helidon server (its default keeps it on)
      """;

  private Main() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
      System.err.print(USAGE);
      System.exit(args.length == 0 ? 2 : 0);
    }
    try {
      switch (args[0]) {
        case "server" -> {
          need(args, 3);
          Servers.run(Impl.parse(args[1]), port(args[2]), System.getenv().getOrDefault("BIND_HOST", "127.0.0.1"));
        }
        case "client" -> {
          need(args, 5);
          StreamClient.Options o = new StreamClient.Options(
              Impl.parse(args[1]),
              Target.parse(args[2]),
              positiveLong(args[3], "numMsg"),
              sizeBytes(args[4]),
              Integer.getInteger("benchline.inflight", 4),
              Long.getLong("benchline.warmup", 0L),
              Long.getLong("benchline.deadline", 600L),
              StreamClient.Mode.parse(System.getProperty("benchline.mode", "unary")));
          System.exit(StreamClient.run(o));
        }
        default -> throw new IllegalArgumentException("unknown command \"" + args[0] + "\"");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("grpc-streaming: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
    }
  }

  private static void need(String[] args, int n) {
    if (args.length != n) throw new IllegalArgumentException(args[0] + " takes " + (n - 1) + " arguments, got " + (args.length - 1));
  }

  private static int port(String s) {
    try {
      int p = Integer.parseInt(s);
      if (p >= 0 && p <= 65535) return p;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("port \"" + s + "\" is not a number from 0 to 65535");
  }

  private static long positiveLong(String s, String what) {
    try {
      long v = Long.parseLong(s);
      if (v > 0) return v;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException(what + " \"" + s + "\" is not a positive whole number");
  }

  /** The seed counts a KB as 1024 bytes (500 KB = 512000 bytes); fractions allow tiny test payloads. */
  static int sizeBytes(String s) {
    double kb;
    try {
      kb = Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("sizeKB \"" + s + "\" is not a number");
    }
    long bytes = Math.round(kb * 1024);
    if (!(kb > 0) || bytes < 1 || bytes > StreamBenchService.MAX_MESSAGE_BYTES - 1024) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "sizeKB %s must give 1 to %d bytes", s, StreamBenchService.MAX_MESSAGE_BYTES - 1024));
    }
    return (int) bytes;
  }
}
