// The client: streams numMsg payloads with at most `inflight` unacknowledged, times it, checks bytes, prints one JSON line.
package benchline.grpcstreaming;

import benchline.grpcstreaming.proto.Ack;
import benchline.grpcstreaming.proto.Chunk;
import benchline.grpcstreaming.proto.StreamBenchGrpc;
import com.google.protobuf.ByteString;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.helidon.common.tls.Tls;
import io.helidon.webclient.grpc.GrpcClient;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

final class StreamClient {
  private StreamClient() {}

  record Options(Impl impl, Target target, long messages, int sizeBytes, int inflight, long warmup, long deadlineSeconds, Mode mode) {}

  /** unary: one Send call per message (4 outstanding); stream: one bidirectional Stream call with an ack per message. */
  enum Mode {
    UNARY, STREAM;

    static Mode parse(String s) {
      return switch (s.toLowerCase(Locale.ROOT)) {
        case "unary" -> UNARY;
        case "stream" -> STREAM;
        default -> throw new IllegalArgumentException("benchline.mode \"" + s + "\" is neither unary nor stream");
      };
    }
  }

  /** What one stream saw. serverMessages/serverBytes come from the server's closing totals (-1 when none arrived). */
  record Outcome(long sent, long acked, long sizeMismatches, long serverMessages, long serverBytes, String server, long nanos, String error) {}

  /** Runs the warm-up (if any) and the measured stream; prints the JSON line; 0 when every byte arrived. */
  static int run(Options o) {
    if (o.inflight() < 1) throw new IllegalArgumentException("benchline.inflight must be at least 1");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.deadlineSeconds());
    ByteString payload = StreamBenchService.payload(o.sizeBytes());
    Connection c = connect(o.impl(), o.target());
    Outcome warm = null;
    Outcome out;
    try {
      if (o.warmup() > 0) warm = transfer(o.mode(), c.channel(), payload, o.warmup(), o.inflight(), deadline);
      out = warm != null && warm.error() != null
          ? new Outcome(0, 0, 0, -1, -1, "", 0, "warm-up failed: " + warm.error())
          : transfer(o.mode(), c.channel(), payload, o.messages(), o.inflight(), deadline);
    } finally {
      c.close();
    }
    long bytesSent = out.sent() * o.sizeBytes();
    boolean bytesMatch = out.error() == null && out.serverBytes() == bytesSent && out.serverMessages() == out.sent();
    double seconds = out.nanos() / 1e9;
    String json = json(o, out, warm, bytesSent, bytesMatch, seconds);
    System.out.println(json);
    System.out.flush();
    System.err.println(String.format(Locale.ROOT, "grpc-streaming client (%s -> %s server at %s): %d x %.1f KB in %.3f s = %.2f MB/s%s",
        o.impl().id(), out.server().isEmpty() ? "?" : out.server(), o.target(), out.sent(), o.sizeBytes() / 1024.0, seconds,
        seconds > 0 ? bytesSent / 1048576.0 / seconds : 0.0, out.error() == null ? (bytesMatch ? "" : "; BYTES DIFFER") : "; FAILED: " + out.error()));
    return out.error() == null && bytesMatch ? 0 : 1;
  }

  static Outcome transfer(Mode mode, Channel channel, ByteString payload, long count, int inflight, long deadlineNanos) {
    return mode == Mode.UNARY ? calls(channel, payload, count, inflight, deadlineNanos) : stream(channel, payload, count, inflight, deadlineNanos);
  }

  record Connection(Channel channel, Runnable closer) {
    void close() {
      closer.run();
    }
  }

  static Connection connect(Impl impl, Target t) {
    return switch (impl) {
      case NETTY -> {
        ManagedChannel ch = NettyChannelBuilder.forAddress(t.bareHost(), t.port())
            .usePlaintext()
            .maxInboundMessageSize(StreamBenchService.MAX_MESSAGE_BYTES)
            .build();
        yield new Connection(ch, () -> {
          ch.shutdownNow();
          try {
            ch.awaitTermination(2, TimeUnit.SECONDS);
          } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
          }
        });
      }
      // Helidon's gRPC client as it comes, but plaintext (it defaults to TLS); its io.grpc.Channel runs the same stub.
      case HELIDON -> new Connection(GrpcClient.builder().baseUri(t.url()).tls(Tls.builder().enabled(false).build()).build().channel(), () -> { });
    };
  }

  /**
   * `count` unary Send calls on one connection, never more than `inflight` outstanding. The server's
   * reply to each call carries the size it received, so totals are summed from the replies.
   */
  static Outcome calls(Channel channel, ByteString payload, long count, int inflight, long deadlineNanos) {
    Semaphore window = new Semaphore(inflight);
    AtomicLong acked = new AtomicLong();
    AtomicLong ackedBytes = new AtomicLong();
    AtomicLong mismatches = new AtomicLong();
    AtomicReference<String> server = new AtomicReference<>("");
    AtomicReference<Throwable> failure = new AtomicReference<>();
    int size = payload.size();
    StreamBenchGrpc.StreamBenchStub stub = StreamBenchGrpc.newStub(channel)
        .withDeadlineAfter(Math.max(deadlineNanos - System.nanoTime(), 1), TimeUnit.NANOSECONDS);
    long sent = 0;
    String error = null;
    long start = System.nanoTime();
    try {
      for (long seq = 0; seq < count; seq++) {
        if (!window.tryAcquire(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS)) {
          error = "deadline passed after " + sent + " of " + count + " calls (" + acked.get() + " answered)";
          break;
        }
        if (failure.get() != null) {
          window.release();
          break;
        }
        stub.send(Chunk.newBuilder().setSeq(seq).setData(payload).build(), new StreamObserver<>() {
          @Override
          public void onNext(Ack ack) {
            acked.incrementAndGet();
            ackedBytes.addAndGet(ack.getSize());
            if (ack.getSize() != size) mismatches.incrementAndGet();
            server.compareAndSet("", ack.getServer());
          }

          @Override
          public void onError(Throwable t) {
            failure.compareAndSet(null, t);
            window.release();
          }

          @Override
          public void onCompleted() {
            window.release();
          }
        });
        sent++;
      }
      // Every permit back means every call has finished.
      if (error == null && !window.tryAcquire(inflight, Math.max(deadlineNanos - System.nanoTime(), 0), TimeUnit.NANOSECONDS)) {
        error = "deadline passed waiting for the last calls (" + acked.get() + " of " + sent + " answered)";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error = "interrupted";
    } catch (RuntimeException e) {
      error = String.valueOf(e);
    }
    long nanos = System.nanoTime() - start;
    if (error == null && failure.get() != null) error = String.valueOf(failure.get());
    return new Outcome(sent, acked.get(), mismatches.get(), acked.get(), ackedBytes.get(), server.get(), nanos, error);
  }

  /** One bidirectional stream of `count` chunks; never more than `inflight` unacknowledged. */
  static Outcome stream(Channel channel, ByteString payload, long count, int inflight, long deadlineNanos) {
    Semaphore window = new Semaphore(inflight);
    CountDownLatch done = new CountDownLatch(1);
    AtomicLong acked = new AtomicLong();
    AtomicLong mismatches = new AtomicLong();
    AtomicReference<Ack> totals = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    int size = payload.size();
    StreamObserver<Ack> responses = new StreamObserver<>() {
      @Override
      public void onNext(Ack ack) {
        if (ack.getLast()) {
          totals.set(ack);
          return;
        }
        acked.incrementAndGet();
        if (ack.getSize() != size) mismatches.incrementAndGet();
        window.release();
      }

      @Override
      public void onError(Throwable t) {
        failure.compareAndSet(null, t);
        window.release(inflight + 1);
        done.countDown();
      }

      @Override
      public void onCompleted() {
        done.countDown();
      }
    };
    long remaining = deadlineNanos - System.nanoTime();
    StreamBenchGrpc.StreamBenchStub stub = StreamBenchGrpc.newStub(channel).withDeadlineAfter(Math.max(remaining, 1), TimeUnit.NANOSECONDS);
    long sent = 0;
    long start = System.nanoTime();
    String error = null;
    StreamObserver<Chunk> requests = stub.stream(responses);
    try {
      for (long seq = 0; seq < count; seq++) {
        if (!window.tryAcquire(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS)) {
          error = "deadline passed after " + sent + " of " + count + " messages (" + acked.get() + " acknowledged)";
          break;
        }
        if (failure.get() != null) break;
        requests.onNext(Chunk.newBuilder().setSeq(seq).setData(payload).build());
        sent++;
      }
      // Half-close only once every ack is in, so the server never has two replies queued at once: Helidon
      // 4.5.0's client reader assumes each HTTP/2 DATA frame starts a new gRPC message, and Netty packs
      // replies written together (an ack and the closing totals) into one frame.
      if (error == null && failure.get() == null
          && !window.tryAcquire(inflight, Math.max(deadlineNanos - System.nanoTime(), 0), TimeUnit.NANOSECONDS)) {
        error = "deadline passed waiting for the last acks (" + acked.get() + " of " + sent + " acknowledged)";
      }
      if (error == null && failure.get() == null) {
        requests.onCompleted();
        if (!done.await(Math.max(deadlineNanos - System.nanoTime(), 0), TimeUnit.NANOSECONDS)) {
          error = "deadline passed waiting for the server's totals (" + acked.get() + " of " + sent + " acknowledged)";
        }
      } else if (error != null) {
        requests.onError(io.grpc.Status.DEADLINE_EXCEEDED.withDescription(error).asRuntimeException());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error = "interrupted";
    } catch (RuntimeException e) {
      error = String.valueOf(e);
    }
    long nanos = System.nanoTime() - start;
    if (error == null && failure.get() != null) error = String.valueOf(failure.get());
    if (error == null && totals.get() == null) error = "the server closed the stream without its totals";
    Ack t = totals.get();
    return new Outcome(sent, acked.get(), mismatches.get(), t == null ? -1 : t.getTotalMessages(), t == null ? -1 : t.getTotalBytes(),
        t == null ? "" : t.getServer(), nanos, error);
  }

  static Properties versions() {
    Properties p = new Properties();
    try (InputStream in = StreamClient.class.getResourceAsStream("/benchline-grpc-streaming.properties")) {
      if (in != null) p.load(in);
    } catch (IOException ignored) {
      // versions are informative only
    }
    return p;
  }

  static String json(Options o, Outcome out, Outcome warm, long bytesSent, boolean bytesMatch, double seconds) {
    Properties v = versions();
    StringBuilder b = new StringBuilder(512).append('{');
    field(b, "tool", "benchline-grpc-streaming-client");
    field(b, "version", v.getProperty("benchline.version", "unknown"));
    field(b, "grpcJava", v.getProperty("grpc.version", "unknown"));
    field(b, "helidon", v.getProperty("helidon.version", "unknown"));
    field(b, "java", System.getProperty("java.version"));
    field(b, "client", o.impl().id());
    field(b, "server", out.server());
    field(b, "target", o.target().toString());
    field(b, "mode", o.mode().name().toLowerCase(Locale.ROOT));
    number(b, "messages", o.messages());
    number(b, "sizeBytes", o.sizeBytes());
    decimal(b, "sizeKB", o.sizeBytes() / 1024.0);
    number(b, "inFlight", o.inflight());
    number(b, "warmupMessages", warm == null ? 0 : warm.sent());
    number(b, "messagesSent", out.sent());
    number(b, "messagesAcked", out.acked());
    number(b, "sizeMismatches", out.sizeMismatches());
    number(b, "serverMessages", out.serverMessages());
    number(b, "bytesSent", bytesSent);
    number(b, "bytesReceived", out.serverBytes());
    b.append("\"bytesMatch\":").append(bytesMatch).append(',');
    number(b, "durationNs", out.nanos());
    decimal(b, "seconds", seconds);
    decimal(b, "mbPerSec", seconds > 0 ? bytesSent / 1048576.0 / seconds : 0);
    decimal(b, "messagesPerSec", seconds > 0 ? out.sent() / seconds : 0);
    b.append("\"error\":");
    if (out.error() == null) b.append("null");
    else quote(b, out.error());
    return b.append('}').toString();
  }

  private static void field(StringBuilder b, String k, String v) {
    quote(b, k);
    b.append(':');
    quote(b, v == null ? "" : v);
    b.append(',');
  }

  private static void number(StringBuilder b, String k, long v) {
    quote(b, k);
    b.append(':').append(v).append(',');
  }

  private static void decimal(StringBuilder b, String k, double v) {
    quote(b, k);
    b.append(':').append(String.format(Locale.ROOT, "%.6f", v)).append(',');
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20) b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
          else b.append(ch);
        }
      }
    }
    b.append('"');
  }
}
