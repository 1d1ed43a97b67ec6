// Hands the encoded size from a benchmark's setup to MessageSizeProfiler, which runs in the same forked JVM.
package benchline.serialization.bench;

public final class MessageSize {
    private static volatile int current = -1;

    private MessageSize() {
    }

    /** Called by a codec's state once per trial; each JMH fork runs exactly one benchmark. */
    public static void record(int bytes) {
        current = bytes;
    }

    /** The size recorded in this JVM, or -1 when the running benchmark has no single codec. */
    public static int current() {
        return current;
    }
}
