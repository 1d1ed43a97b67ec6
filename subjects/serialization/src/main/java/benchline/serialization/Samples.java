// Deterministic sample messages, so every codec, benchmark and test measures the same content.
package benchline.serialization;

import benchline.serialization.model.BookEntry;
import benchline.serialization.model.Header;
import benchline.serialization.model.MarketData;
import benchline.serialization.model.Side;

import java.util.ArrayList;
import java.util.List;

public final class Samples {
    /** Book levels per side in the message the benchmarks use unless a depth is given. */
    public static final int DEFAULT_DEPTH = 5;

    private Samples() {
    }

    public static MarketData marketData() {
        return marketData(DEFAULT_DEPTH);
    }

    /** A snapshot with {@code depth} levels on each side of the book. */
    public static MarketData marketData(int depth) {
        List<BookEntry> entries = new ArrayList<>(depth * 2);
        for (int level = 0; level < depth; level++) {
            entries.add(new BookEntry(Side.BID, level, 187.25 - level * 0.05, 100L * (level + 1), 3 + level));
            entries.add(new BookEntry(Side.ASK, level, 187.30 + level * 0.05, 120L * (level + 1), 2 + level));
        }
        return new MarketData(
                new Header(1, 4_815_162_342L, 1_764_000_000_123_456_789L),
                "AAPL",
                187.25,
                187.30,
                187.27,
                1_500,
                1_200,
                38_214_977,
                entries);
    }
}
