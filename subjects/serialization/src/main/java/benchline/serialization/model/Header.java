// The message's own header: which feed template it follows, its place in the stream and when it was sent.
package benchline.serialization.model;

public record Header(int templateId, long sequenceNumber, long timestamp) {
}
