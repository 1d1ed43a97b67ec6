// Round-trip correctness of every codec: what goes in comes back equal, for books of several depths.
package benchline.serialization;

import benchline.serialization.codec.Codec;
import benchline.serialization.codec.Codecs;
import benchline.serialization.codec.JsonCodec;
import benchline.serialization.codec.ProtobufCodec;
import benchline.serialization.codec.SbeCodec;
import benchline.serialization.model.MarketData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundTripTest {
    static Stream<Arguments> codecsAndDepths() {
        return Codecs.all().stream().flatMap(c -> Stream.of(0, 1, 5, 20).map(d -> Arguments.of(c.name(), d)));
    }

    private static Codec codec(String name) {
        return Codecs.all().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0} decodes a {1}-level book equal to the original")
    @MethodSource("codecsAndDepths")
    void decodedMessageEqualsOriginal(String name, int depth) {
        Codec codec = codec(name);
        MarketData original = Samples.marketData(depth);
        byte[] buffer = new byte[Codecs.BUFFER_BYTES];
        int size = codec.encode(original, buffer);
        assertTrue(size > 0, name + " wrote no bytes");
        assertEquals(original, codec.decode(Arrays.copyOf(buffer, size), size));
        if (depth == Samples.DEFAULT_DEPTH) {
            System.out.printf("%s encodes the sample message in %d bytes%n", name, size);
        }
    }

    @Test
    void codecReusedAcrossMessagesDoesNotLeakState() {
        for (Codec codec : Codecs.all()) {
            byte[] buffer = new byte[Codecs.BUFFER_BYTES];
            codec.encode(Samples.marketData(20), buffer);
            MarketData small = Samples.marketData(1);
            int size = codec.encode(small, buffer);
            assertEquals(small, codec.decode(buffer, size), codec.name());
        }
    }

    @Test
    void jsonIsTheLargestEncodingOfTheSampleMessage() {
        MarketData m = Samples.marketData();
        byte[] buffer = new byte[Codecs.BUFFER_BYTES];
        int sbe = new SbeCodec().encode(m, buffer);
        int protobuf = new ProtobufCodec().encode(m, buffer);
        int json = new JsonCodec().encode(m, buffer);
        // SBE's fixed-width fields may lose to Protobuf's varints on size; text always loses to both.
        assertTrue(json > sbe && json > protobuf, "json " + json + " vs sbe " + sbe + ", protobuf " + protobuf);
    }

    @Test
    void truncatedProtobufAndJsonInputsFailLoudly() {
        MarketData m = Samples.marketData();
        for (Codec codec : new Codec[] {new ProtobufCodec(), new JsonCodec()}) {
            byte[] buffer = new byte[Codecs.BUFFER_BYTES];
            int size = codec.encode(m, buffer);
            assertThrows(UncheckedIOException.class, () -> codec.decode(buffer, size / 2), codec.name());
        }
    }

    @Test
    void encodingIntoATooSmallBufferFailsInsteadOfTruncating() {
        MarketData m = Samples.marketData(20);
        for (Codec codec : Codecs.all()) {
            assertThrows(RuntimeException.class, () -> codec.encode(m, new byte[64]), codec.name());
        }
    }
}
