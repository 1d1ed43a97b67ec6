// One price level of the order book, as carried in the message's repeating group.
package benchline.serialization.model;

public record BookEntry(Side side, int level, double price, long quantity, int orderCount) {
}
