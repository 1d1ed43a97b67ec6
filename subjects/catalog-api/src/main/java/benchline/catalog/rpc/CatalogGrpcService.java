// gRPC API: the keyset page as a unary call and the whole range as one server stream of pages.
package benchline.catalog.rpc;

import benchline.catalog.BadRequest;
import benchline.catalog.Cursor;
import benchline.catalog.Event;
import benchline.catalog.EventRepository;
import benchline.catalog.Pages;
import benchline.catalog.Range;
import benchline.catalog.Settings;
import benchline.catalog.grpc.CatalogServiceGrpc;
import benchline.catalog.grpc.EventPage;
import benchline.catalog.grpc.ListEventsRequest;
import benchline.catalog.grpc.StreamEventsRequest;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;

public class CatalogGrpcService extends CatalogServiceGrpc.CatalogServiceImplBase {
  private final EventRepository repo;
  private final Settings settings;

  public CatalogGrpcService(EventRepository repo, Settings settings) {
    this.repo = repo;
    this.settings = settings;
  }

  static benchline.catalog.grpc.Event toProto(Event e) {
    return benchline.catalog.grpc.Event.newBuilder()
        .setId(e.id())
        .setOccurredAt(Timestamp.newBuilder().setSeconds(e.occurredAt().getEpochSecond()).setNanos(e.occurredAt().getNano()))
        .setType(e.type())
        .setSource(e.source())
        .setUserId(e.userId())
        .setAmountCents(e.amountCents())
        .build();
  }

  static EventPage page(List<Event> items, Cursor next) {
    EventPage.Builder b = EventPage.newBuilder();
    for (Event e : items) b.addEvents(toProto(e));
    if (next != null) b.setNextCursor(next.encode());
    return b.build();
  }

  /** proto3 has no "absent": 0 means the server's default page size, anything else follows the HTTP rule. */
  private int size(int requested) {
    return requested == 0 ? settings.pageSize() : Settings.pageSize("page_size", String.valueOf(requested));
  }

  @Override
  public void listEvents(ListEventsRequest req, StreamObserver<EventPage> out) {
    Pages.Keyset page;
    try {
      Range range = Range.of(req.getStart(), req.getEnd(), settings);
      page = Pages.keyset(repo, range, Cursor.parse(req.getCursor()), size(req.getPageSize()));
    } catch (BadRequest e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    out.onNext(page(page.items(), page.next()));
    out.onCompleted();
  }

  /** Walks the range page by page on the server (keyset, no counts) and sends each page as it is read. */
  @Override
  public void streamEvents(StreamEventsRequest req, StreamObserver<EventPage> out) {
    Range range;
    int pageSize;
    try {
      range = Range.of(req.getStart(), req.getEnd(), settings);
      pageSize = size(req.getPageSize());
    } catch (BadRequest e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    ServerCallStreamObserver<EventPage> call = (ServerCallStreamObserver<EventPage>) out;
    Cursor after = null;
    do {
      if (call.isCancelled()) return;
      Pages.Keyset page = Pages.keyset(repo, range, after, pageSize);
      if (page.items().isEmpty() && after != null) break;
      out.onNext(page(page.items(), page.next()));
      after = page.next();
    } while (after != null);
    out.onCompleted();
  }
}
