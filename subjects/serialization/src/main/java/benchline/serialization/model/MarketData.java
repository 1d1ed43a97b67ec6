// The market-data message every codec encodes: header, symbol, top of book, last trade and book levels.
package benchline.serialization.model;

import java.util.List;

/**
 * Records give value equality, which is what the round-trip tests compare. {@code entries} is kept
 * as given (no defensive copy) so decoders pay for one list only, like a hand-written DTO would.
 */
public record MarketData(
        Header header,
        String symbol,
        double bidPrice,
        double askPrice,
        double lastPrice,
        long bidQuantity,
        long askQuantity,
        long volume,
        List<BookEntry> entries) {
}
