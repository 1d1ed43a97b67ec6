// The codecs under test, by name, so benchmarks, the recorder and the tests agree on one list.
package benchline.serialization.codec;

import java.util.List;
import java.util.function.Supplier;

public final class Codecs {
    /** Large enough for the deepest book the benchmarks use, in the most verbose format (JSON). */
    public static final int BUFFER_BYTES = 64 * 1024;

    private static final List<Supplier<Codec>> ALL = List.of(SbeCodec::new, ProtobufCodec::new, JsonCodec::new);

    private Codecs() {
    }

    /** Fresh instances: codecs hold per-thread scratch state. */
    public static List<Codec> all() {
        return ALL.stream().map(Supplier::get).toList();
    }
}
