// JMH benchmarks: serialize and deserialize the sample market-data message with SBE, Protobuf and JSON.
package benchline.serialization.bench;

import benchline.serialization.Samples;
import benchline.serialization.codec.Codec;
import benchline.serialization.codec.Codecs;
import benchline.serialization.codec.JsonCodec;
import benchline.serialization.codec.ProtobufCodec;
import benchline.serialization.codec.SbeCodec;
import benchline.serialization.model.MarketData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Defaults match the full profile; the pipeline passes -f/-wi/-i/-w/-r/-bm on the command line.
 * A fixed heap keeps GC behaviour the same on every machine; Agrona needs jdk.internal.misc.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms512m", "-Xmx512m"})
public class SerializationBenchmark {

    /** One codec with its message, output buffer and a pre-encoded copy to decode from. */
    public abstract static class CodecState {
        final Codec codec;
        final byte[] out = new byte[Codecs.BUFFER_BYTES];
        MarketData message;
        byte[] encoded;
        int encodedLength;

        CodecState(Codec codec) {
            this.codec = codec;
        }

        @Setup(Level.Trial)
        public void setUp() {
            message = Samples.marketData();
            encodedLength = codec.encode(message, out);
            encoded = Arrays.copyOf(out, encodedLength);
            if (!codec.decode(encoded, encodedLength).equals(message)) {
                throw new IllegalStateException(codec.name() + ": decoded message differs from the original");
            }
            MessageSize.record(encodedLength);
        }
    }

    @State(Scope.Thread)
    public static class Sbe extends CodecState {
        public Sbe() {
            super(new SbeCodec());
        }
    }

    @State(Scope.Thread)
    public static class Protobuf extends CodecState {
        public Protobuf() {
            super(new ProtobufCodec());
        }
    }

    @State(Scope.Thread)
    public static class Json extends CodecState {
        public Json() {
            super(new JsonCodec());
        }
    }

    @Benchmark
    public int sbeSerialize(Sbe s) {
        return s.codec.encode(s.message, s.out);
    }

    @Benchmark
    public MarketData sbeDeserialize(Sbe s) {
        return s.codec.decode(s.encoded, s.encodedLength);
    }

    @Benchmark
    public int protobufSerialize(Protobuf s) {
        return s.codec.encode(s.message, s.out);
    }

    @Benchmark
    public MarketData protobufDeserialize(Protobuf s) {
        return s.codec.decode(s.encoded, s.encodedLength);
    }

    @Benchmark
    public int jsonSerialize(Json s) {
        return s.codec.encode(s.message, s.out);
    }

    @Benchmark
    public MarketData jsonDeserialize(Json s) {
        return s.codec.decode(s.encoded, s.encodedLength);
    }
}
