// A request (or setting) the service refuses, with a message that says what is wrong and what would be accepted.
package benchline.catalog;

public class BadRequest extends IllegalArgumentException {
  public BadRequest(String message) {
    super(message);
  }
}
