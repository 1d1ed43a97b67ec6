// SBE codec: fixed-layout flyweights generated from market-data-sbe.xml, writing straight into the buffer.
package benchline.serialization.codec;

import benchline.serialization.model.BookEntry;
import benchline.serialization.model.Header;
import benchline.serialization.model.MarketData;
import benchline.serialization.model.Side;
import benchline.serialization.sbe.MarketDataDecoder;
import benchline.serialization.sbe.MarketDataEncoder;
import benchline.serialization.sbe.MessageHeaderDecoder;
import benchline.serialization.sbe.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

public final class SbeCodec implements Codec {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MarketDataEncoder encoder = new MarketDataEncoder();
    private final MarketDataDecoder decoder = new MarketDataDecoder();

    @Override
    public String name() {
        return "sbe";
    }

    @Override
    public int encode(MarketData m, byte[] out) {
        buffer.wrap(out);
        encoder.wrapAndApplyHeader(buffer, 0, headerEncoder);
        encoder.header()
                .templateId(m.header().templateId())
                .sequenceNumber(m.header().sequenceNumber())
                .timestamp(m.header().timestamp());
        encoder.symbol(m.symbol())
                .bidPrice(m.bidPrice())
                .askPrice(m.askPrice())
                .lastPrice(m.lastPrice())
                .bidQuantity(m.bidQuantity())
                .askQuantity(m.askQuantity())
                .volume(m.volume());
        List<BookEntry> entries = m.entries();
        MarketDataEncoder.EntriesEncoder group = encoder.entriesCount(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            BookEntry e = entries.get(i);
            group.next()
                    .side(e.side() == Side.BID ? benchline.serialization.sbe.Side.BID : benchline.serialization.sbe.Side.ASK)
                    .level((short) e.level())
                    .price(e.price())
                    .quantity(e.quantity())
                    .orderCount(e.orderCount());
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    @Override
    public MarketData decode(byte[] in, int length) {
        buffer.wrap(in, 0, length);
        // Throws when the frame carries another template or schema, instead of misreading it.
        decoder.wrapAndApplyHeader(buffer, 0, headerDecoder);
        var h = decoder.header();
        Header header = new Header(h.templateId(), h.sequenceNumber(), h.timestamp());
        // SBE requires fields to be read in schema order: fixed block first, then the group.
        String symbol = decoder.symbol();
        double bidPrice = decoder.bidPrice();
        double askPrice = decoder.askPrice();
        double lastPrice = decoder.lastPrice();
        long bidQuantity = decoder.bidQuantity();
        long askQuantity = decoder.askQuantity();
        long volume = decoder.volume();
        MarketDataDecoder.EntriesDecoder group = decoder.entries();
        List<BookEntry> entries = new ArrayList<>(group.count());
        while (group.hasNext()) {
            group.next();
            entries.add(new BookEntry(
                    group.side() == benchline.serialization.sbe.Side.BID ? Side.BID : Side.ASK,
                    group.level(),
                    group.price(),
                    group.quantity(),
                    group.orderCount()));
        }
        return new MarketData(header, symbol, bidPrice, askPrice, lastPrice, bidQuantity, askQuantity, volume, entries);
    }
}
