// The service both servers run unchanged: acks every streamed chunk with its size and reports totals at the end.
package benchline.grpcstreaming;

import benchline.grpcstreaming.proto.Ack;
import benchline.grpcstreaming.proto.Chunk;
import benchline.grpcstreaming.proto.FetchRequest;
import benchline.grpcstreaming.proto.StreamBenchGrpc;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

final class StreamBenchService extends StreamBenchGrpc.StreamBenchImplBase {
  /** Largest message either side accepts; gRPC's 4 MiB default would cap the payload sizes. */
  static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  private final String server;
  private final Map<Integer, ByteString> fetchPayloads = new ConcurrentHashMap<>();

  StreamBenchService(Impl impl) {
    this.server = impl.id();
  }

  /** Incompressible bytes, the same for a given size on both sides of a run. */
  static ByteString payload(int size) {
    byte[] b = new byte[size];
    new SplittableRandom(size).nextBytes(b);
    return ByteString.copyFrom(b);
  }

  @Override
  public StreamObserver<Chunk> stream(StreamObserver<Ack> responses) {
    // Counters are atomic because a stack need not deliver one call's messages on one thread.
    AtomicLong messages = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    return new StreamObserver<>() {
      @Override
      public void onNext(Chunk chunk) {
        int size = chunk.getData().size();
        messages.incrementAndGet();
        bytes.addAndGet(size);
        responses.onNext(Ack.newBuilder().setSeq(chunk.getSeq()).setSize(size).build());
      }

      @Override
      public void onError(Throwable t) {
        System.err.println("grpc-streaming server (" + server + "): stream failed after " + messages.get() + " messages: " + t);
      }

      @Override
      public void onCompleted() {
        responses.onNext(Ack.newBuilder().setLast(true).setTotalMessages(messages.get()).setTotalBytes(bytes.get()).setServer(server).build());
        responses.onCompleted();
      }
    };
  }

  @Override
  public void send(Chunk chunk, StreamObserver<Ack> response) {
    response.onNext(Ack.newBuilder().setSeq(chunk.getSeq()).setSize(chunk.getData().size()).setServer(server).build());
    response.onCompleted();
  }

  @Override
  public void fetch(FetchRequest request, StreamObserver<Chunk> response) {
    int size = request.getSize();
    if (size < 0 || size > MAX_MESSAGE_BYTES - 1024) {
      response.onError(Status.INVALID_ARGUMENT.withDescription("size must be 0.." + (MAX_MESSAGE_BYTES - 1024)).asRuntimeException());
      return;
    }
    response.onNext(Chunk.newBuilder().setData(fetchPayloads.computeIfAbsent(size, StreamBenchService::payload)).build());
    response.onCompleted();
  }
}
