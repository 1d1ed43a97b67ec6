// Seed 002's REST phase: an HTTP endpoint per codec that encodes the sample, decodes it back and says whether the two match.
package benchline.serialization;

import benchline.serialization.codec.Codec;
import benchline.serialization.codec.Codecs;
import benchline.serialization.model.MarketData;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Endpoints (GET, HOST and PORT from the environment, 127.0.0.1:8080 by default):
 * <ul>
 *   <li>{@code /api/test/<codec>}: the seed's answer, {@code {"protocol","size","match","original","decoded"}}:
 *       the sample encoded and decoded on every request, {@code match} true when the decoded message equals it;</li>
 *   <li>{@code /api/encoded/<codec>}: the encoded bytes themselves, so a client sees each format's size on the wire;</li>
 *   <li>{@code /health}.</li>
 * </ul>
 * Codecs keep scratch state, so each request thread gets its own (a ThreadLocal per codec name).
 */
public final class HttpServe {
    private static final Map<String, String> PROTOCOL = Map.of("sbe", "SBE", "protobuf", "Protobuf", "json", "JSON");
    private static final Map<String, String> CONTENT_TYPE = Map.of(
            "sbe", "application/x-sbe", "protobuf", "application/x-protobuf", "json", "application/json");

    private HttpServe() {
    }

    /** Per-thread codecs, by name. */
    private static final ThreadLocal<Map<String, Codec>> CODECS = ThreadLocal.withInitial(
            () -> Codecs.all().stream().collect(Collectors.toMap(Codec::name, Function.identity())));
    private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[Codecs.BUFFER_BYTES]);

    public static void main(String[] args) throws IOException, InterruptedException {
        String host = System.getenv().getOrDefault("HOST", "127.0.0.1");
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8080"));
        MarketData sample = Samples.marketData();
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 256);
        server.createContext("/health", ex -> send(ex, 200, "text/plain", "ok".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/api/test/", ex -> {
            Codec codec = codec(ex, "/api/test/");
            if (codec == null) return;
            byte[] buf = BUFFER.get();
            int size = codec.encode(sample, buf);
            MarketData decoded = codec.decode(Arrays.copyOf(buf, size), size);
            String body = "{\"protocol\":" + quote(PROTOCOL.get(codec.name())) + ",\"size\":" + size
                    + ",\"match\":" + decoded.equals(sample) + ",\"original\":" + quote(sample.toString())
                    + ",\"decoded\":" + quote(decoded.toString()) + "}";
            send(ex, 200, "application/json", body.getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/api/encoded/", ex -> {
            Codec codec = codec(ex, "/api/encoded/");
            if (codec == null) return;
            byte[] buf = BUFFER.get();
            int size = codec.encode(sample, buf);
            send(ex, 200, CONTENT_TYPE.get(codec.name()), Arrays.copyOf(buf, size));
        });
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            stopped.countDown();
        }, "serialization-http-stop"));
        System.err.println("serialization http: listening on http://" + host + ":" + server.getAddress().getPort()
                + " (/api/test/<codec>, /api/encoded/<codec>, codecs " + String.join(", ", PROTOCOL.keySet().stream().sorted().toList()) + ")");
        stopped.await();
    }

    /** The codec named by the path after {@code prefix}, or null after answering 404/405. */
    private static Codec codec(HttpExchange ex, String prefix) throws IOException {
        if (!"GET".equals(ex.getRequestMethod())) {
            send(ex, 405, "text/plain", "GET only\n".getBytes(StandardCharsets.UTF_8));
            return null;
        }
        String name = ex.getRequestURI().getPath().substring(prefix.length());
        Codec codec = CODECS.get().get(name);
        if (codec == null) {
            send(ex, 404, "text/plain", ("no codec \"" + name + "\"; use sbe, protobuf or json\n").getBytes(StandardCharsets.UTF_8));
        }
        return codec;
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
