// Which side of the order book an entry belongs to.
package benchline.serialization.model;

public enum Side {
    BID,
    ASK
}
