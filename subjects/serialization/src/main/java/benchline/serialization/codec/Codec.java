// What every wire format under test offers: encode into a caller's buffer, decode back into the model.
package benchline.serialization.codec;

import benchline.serialization.model.MarketData;

/**
 * Encoding into a caller-owned array keeps the comparison about the format: no codec is charged for
 * allocating its output buffer, and each still pays for whatever its own API allocates.
 * Instances keep reusable scratch state, so one instance belongs to one thread.
 */
public interface Codec {
    /** Short name used in benchmark names and reports: sbe, protobuf, json. */
    String name();

    /** Writes the message at offset 0 of {@code out} and returns the number of bytes written. */
    int encode(MarketData message, byte[] out);

    /** Reads a message from the first {@code length} bytes of {@code in}. */
    MarketData decode(byte[] in, int length);
}
