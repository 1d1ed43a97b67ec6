// JMH benchmarks of serialization cost against order-book depth, one @Param run per depth.
package benchline.serialization.bench;

import benchline.serialization.Samples;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/** Shows whether a format's cost grows with the repeating group or is dominated by fixed overhead. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class BookDepthBenchmark {
    /** Levels per side of the book. */
    @Param({"1", "20"})
    public int depth;

    private final SbeCodec sbe = new SbeCodec();
    private final ProtobufCodec protobuf = new ProtobufCodec();
    private final JsonCodec json = new JsonCodec();
    private final byte[] out = new byte[Codecs.BUFFER_BYTES];
    private MarketData message;

    @Setup(Level.Trial)
    public void setUp() {
        message = Samples.marketData(depth);
    }

    @Benchmark
    public int sbeSerialize() {
        return sbe.encode(message, out);
    }

    @Benchmark
    public int protobufSerialize() {
        return protobuf.encode(message, out);
    }

    @Benchmark
    public int jsonSerialize() {
        return json.encode(message, out);
    }
}
