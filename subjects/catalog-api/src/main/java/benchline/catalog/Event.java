// One catalog event as the HTTP APIs render it; the HAL relation names make the embedded list "events".
package benchline.catalog;

import java.time.Instant;
import org.springframework.hateoas.server.core.Relation;

@Relation(itemRelation = "event", collectionRelation = "events")
public record Event(long id, Instant occurredAt, String type, String source, long userId, long amountCents) {}
