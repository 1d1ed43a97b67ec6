// Reports the encoded size of what a call sent in its trailers, so clients that only see decoded messages (k6) can measure payload bytes.
package benchline.catalog.rpc;

import com.google.protobuf.MessageLite;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Adds `x-message-bytes` (sum of the serialized sizes of the response messages, without gRPC's
 * 5-byte frame prefix or HTTP/2 framing) and `x-messages` (their count) to every call's trailers.
 * protobuf memoizes getSerializedSize(), so asking costs nothing extra when the message is written.
 */
public class MessageSizeInterceptor implements ServerInterceptor {
  public static final Metadata.Key<String> BYTES = Metadata.Key.of("x-message-bytes", Metadata.ASCII_STRING_MARSHALLER);
  public static final Metadata.Key<String> COUNT = Metadata.Key.of("x-messages", Metadata.ASCII_STRING_MARSHALLER);

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    ServerCall<Q, R> counting = new SimpleForwardingServerCall<>(call) {
      private long bytes;
      private long messages;

      @Override
      public void sendMessage(R message) {
        if (message instanceof MessageLite m) bytes += m.getSerializedSize();
        messages += 1;
        super.sendMessage(message);
      }

      @Override
      public void close(Status status, Metadata trailers) {
        trailers.put(BYTES, Long.toString(bytes));
        trailers.put(COUNT, Long.toString(messages));
        super.close(status, trailers);
      }
    };
    return next.startCall(counting, headers);
  }
}
