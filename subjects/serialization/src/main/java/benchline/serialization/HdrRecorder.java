// Records per-operation encode/decode latency of every codec in HdrHistograms and writes .hgrm and JSON.
package benchline.serialization;

import benchline.serialization.codec.Codec;
import benchline.serialization.codec.Codecs;
import benchline.serialization.model.MarketData;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Complements JMH's averages with every single operation's time, timed with System.nanoTime, so the
 * tail (p99.9, max) is visible. Also checks that each codec round-trips the message and prints its
 * encoded size; exits with status 1 when a codec does not round-trip.
 *
 * <p>Usage: {@code java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -cp target/benchmarks.jar
 * benchline.serialization.HdrRecorder [--count N] [--warmup N] [--depth N] [--out DIR]}
 */
public final class HdrRecorder {
    private static final double[] PERCENTILES = {50.0, 90.0, 99.0, 99.9, 99.99};
    private static final Map<String, String> DISPLAY = Map.of("sbe", "SBE", "protobuf", "Protobuf", "json", "JSON");

    private HdrRecorder() {
    }

    public static void main(String[] args) throws IOException {
        int count = 100_000;
        int warmup = 20_000;
        int depth = Samples.DEFAULT_DEPTH;
        Path out = Path.of("target", "hdr");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--count" -> count = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--depth" -> depth = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> {
                    System.err.println("HdrRecorder: unknown argument " + args[i]
                            + "; usage: [--count N] [--warmup N] [--depth N] [--out DIR]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(out);

        MarketData message = Samples.marketData(depth);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("count", count);
        summary.put("warmup", warmup);
        summary.put("depth", depth);
        summary.put("unit", "ns");
        Map<String, Object> codecs = new LinkedHashMap<>();
        summary.put("codecs", codecs);
        long sink = 0;
        boolean allRoundTrip = true;

        for (Codec codec : Codecs.all()) {
            byte[] buffer = new byte[Codecs.BUFFER_BYTES];
            int size = codec.encode(message, buffer);
            byte[] encoded = Arrays.copyOf(buffer, size);
            boolean roundTrip = codec.decode(encoded, size).equals(message);
            allRoundTrip &= roundTrip;

            // Warm both paths before timing, so the histograms describe compiled code.
            for (int i = 0; i < warmup; i++) {
                sink += codec.encode(message, buffer);
                sink += codec.decode(encoded, size).entries().size();
            }
            Histogram serialize = new Histogram(3);
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                int n = codec.encode(message, buffer);
                serialize.recordValue(System.nanoTime() - start);
                sink += n;
            }
            Histogram deserialize = new Histogram(3);
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                MarketData decoded = codec.decode(encoded, size);
                deserialize.recordValue(System.nanoTime() - start);
                sink += decoded.entries().size();
            }

            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("encodedBytes", size);
            entry.put("roundTrip", roundTrip);
            entry.put("serialize", describe(serialize));
            entry.put("deserialize", describe(deserialize));
            codecs.put(codec.name(), entry);
            writeHgrm(out.resolve(codec.name() + "-serialize.hgrm"), serialize);
            writeHgrm(out.resolve(codec.name() + "-deserialize.hgrm"), deserialize);

            String label = DISPLAY.getOrDefault(codec.name(), codec.name());
            print(label + " Serialize", serialize);
            print(label + " Deserialize", deserialize);
            System.out.printf("%s encoded size: %d bytes; round trip %s%n%n", label, size, roundTrip ? "ok" : "FAILED");
        }

        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        writeAtomically(out.resolve("hdr-result.json"), mapper.writeValueAsString(summary) + "\n");
        System.out.printf("wrote %s (checksum %d)%n", out.toAbsolutePath(), sink);
        if (!allRoundTrip) {
            System.err.println("HdrRecorder: a codec did not round-trip the message (see above)");
            System.exit(1);
        }
    }

    private static Map<String, Object> describe(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("min", h.getMinValue());
        m.put("mean", h.getMean());
        m.put("max", h.getMaxValue());
        for (double p : PERCENTILES) {
            m.put("p" + stripZero(p), h.getValueAtPercentile(p));
        }
        return m;
    }

    private static void print(String title, Histogram h) {
        System.out.printf("%s:%n", title);
        System.out.printf("  Count: %d%n", h.getTotalCount());
        System.out.printf("  Min:   %d ns%n", h.getMinValue());
        System.out.printf("  Mean:  %.2f ns%n", h.getMean());
        System.out.printf("  Max:   %d ns%n", h.getMaxValue());
        System.out.printf("  P50:   %d ns%n", h.getValueAtPercentile(50.0));
        System.out.printf("  P90:   %d ns%n", h.getValueAtPercentile(90.0));
        System.out.printf("  P99:   %d ns%n", h.getValueAtPercentile(99.0));
        System.out.printf("  P99.9: %d ns%n", h.getValueAtPercentile(99.9));
    }

    private static String stripZero(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }

    /** HdrHistogram's own percentile text, readable by its plotter; values are in ns (scale 1). */
    private static void writeHgrm(Path file, Histogram h) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            h.outputPercentileDistribution(ps, 1.0);
        }
        writeAtomically(file, bytes.toString(StandardCharsets.UTF_8));
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
