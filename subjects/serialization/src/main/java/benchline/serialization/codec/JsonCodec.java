// JSON codec: Jackson data binding of the model records, the usual choice when nothing faster is needed.
package benchline.serialization.codec;

import benchline.serialization.model.MarketData;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

public final class JsonCodec implements Codec {
    // Readers and writers are immutable and cache their (de)serializers: built once, as a service would.
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectWriter WRITER = MAPPER.writerFor(MarketData.class);
    private static final ObjectReader READER = MAPPER.readerFor(MarketData.class);

    private final ArraySink sink = new ArraySink();

    @Override
    public String name() {
        return "json";
    }

    @Override
    public int encode(MarketData message, byte[] out) {
        sink.reset(out);
        try {
            WRITER.writeValue(sink, message);
        } catch (IOException e) {
            throw new UncheckedIOException("json: cannot encode MarketData", e);
        }
        return sink.position;
    }

    @Override
    public MarketData decode(byte[] in, int length) {
        try {
            return READER.readValue(in, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException("json: not a MarketData document", e);
        }
    }

    /** An OutputStream over a caller's array, so JSON is charged for Jackson's work and not for growing a buffer. */
    private static final class ArraySink extends OutputStream {
        private byte[] target;
        private int position;

        void reset(byte[] out) {
            target = out;
            position = 0;
        }

        @Override
        public void write(int b) {
            ensure(1);
            target[position++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, target, position, len);
            position += len;
        }

        private void ensure(int len) {
            if (position + len > target.length) {
                throw new UncheckedIOException(new IOException("json: message does not fit the " + target.length + "-byte buffer"));
            }
        }
    }
}
