// Protobuf codec: builds the generated message from the model and writes it with a CodedOutputStream.
package benchline.serialization.codec;

import benchline.serialization.model.BookEntry;
import benchline.serialization.model.Header;
import benchline.serialization.model.MarketData;
import benchline.serialization.model.Side;
import benchline.serialization.proto.MarketDataProtos;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

public final class ProtobufCodec implements Codec {
    @Override
    public String name() {
        return "protobuf";
    }

    @Override
    public int encode(MarketData m, byte[] out) {
        MarketDataProtos.MarketData.Builder b = MarketDataProtos.MarketData.newBuilder()
                .setHeader(MarketDataProtos.Header.newBuilder()
                        .setTemplateId(m.header().templateId())
                        .setSequenceNumber(m.header().sequenceNumber())
                        .setTimestamp(m.header().timestamp()))
                .setSymbol(m.symbol())
                .setBidPrice(m.bidPrice())
                .setAskPrice(m.askPrice())
                .setLastPrice(m.lastPrice())
                .setBidQuantity(m.bidQuantity())
                .setAskQuantity(m.askQuantity())
                .setVolume(m.volume());
        List<BookEntry> entries = m.entries();
        for (int i = 0; i < entries.size(); i++) {
            BookEntry e = entries.get(i);
            b.addEntries(MarketDataProtos.BookEntry.newBuilder()
                    .setSide(e.side() == Side.BID ? MarketDataProtos.Side.SIDE_BID : MarketDataProtos.Side.SIDE_ASK)
                    .setLevel(e.level())
                    .setPrice(e.price())
                    .setQuantity(e.quantity())
                    .setOrderCount(e.orderCount()));
        }
        MarketDataProtos.MarketData message = b.build();
        CodedOutputStream output = CodedOutputStream.newInstance(out);
        try {
            message.writeTo(output);
        } catch (IOException e) {
            throw new UncheckedIOException("protobuf: message does not fit the " + out.length + "-byte buffer", e);
        }
        return message.getSerializedSize();
    }

    @Override
    public MarketData decode(byte[] in, int length) {
        MarketDataProtos.MarketData p;
        try {
            p = MarketDataProtos.MarketData.parseFrom(CodedInputStream.newInstance(in, 0, length));
        } catch (IOException e) {
            throw new UncheckedIOException("protobuf: not a MarketData message", e);
        }
        MarketDataProtos.Header h = p.getHeader();
        List<BookEntry> entries = new ArrayList<>(p.getEntriesCount());
        for (int i = 0; i < p.getEntriesCount(); i++) {
            MarketDataProtos.BookEntry e = p.getEntries(i);
            entries.add(new BookEntry(
                    e.getSide() == MarketDataProtos.Side.SIDE_BID ? Side.BID : Side.ASK,
                    e.getLevel(),
                    e.getPrice(),
                    e.getQuantity(),
                    e.getOrderCount()));
        }
        return new MarketData(
                new Header(h.getTemplateId(), h.getSequenceNumber(), h.getTimestamp()),
                p.getSymbol(),
                p.getBidPrice(),
                p.getAskPrice(),
                p.getLastPrice(),
                p.getBidQuantity(),
                p.getAskQuantity(),
                p.getVolume(),
                entries);
    }
}
