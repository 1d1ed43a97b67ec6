// HATEOAS API: offset pages rendered by Spring HATEOAS as HAL, with _links (self/next/prev/first/last) and page metadata.
package benchline.catalog.web;

import static org.springframework.hateoas.server.mvc.WebMvcLinkBuilder.linkTo;
import static org.springframework.hateoas.server.mvc.WebMvcLinkBuilder.methodOn;

import benchline.catalog.Event;
import benchline.catalog.EventRepository;
import benchline.catalog.Pages;
import benchline.catalog.Range;
import benchline.catalog.Settings;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.web.PagedResourcesAssembler;
import org.springframework.hateoas.EntityModel;
import org.springframework.hateoas.PagedModel;
import org.springframework.hateoas.server.RepresentationModelAssembler;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/hateoas/events")
public class HateoasController {
  private final EventRepository repo;
  private final Settings settings;
  private final PagedResourcesAssembler<Event> pages;
  // Each event links to itself, as a RepresentationModelAssembler built on WebMvcLinkBuilder does in Spring applications.
  private final RepresentationModelAssembler<Event, EntityModel<Event>> items = e ->
      EntityModel.of(e, linkTo(methodOn(HateoasController.class).one(e.id())).withSelfRel());

  public HateoasController(EventRepository repo, Settings settings, PagedResourcesAssembler<Event> pages) {
    this.repo = repo;
    this.settings = settings;
    this.pages = pages;
  }

  /** Page `page` (from 0) of `size` events in [start, end]; a COUNT(*) per request gives totalElements and totalPages. */
  @GetMapping
  public PagedModel<EntityModel<Event>> list(
      @RequestParam(required = false) String start,
      @RequestParam(required = false) String end,
      @RequestParam(required = false) String page,
      @RequestParam(required = false) String size) {
    Range range = Range.of(start, end, settings);
    int pageSize = Pages.size(size, settings);
    long number = Pages.pageNumber(page);
    if (number > Integer.MAX_VALUE) number = Integer.MAX_VALUE;
    long total = repo.count(range);
    PageRequest request = PageRequest.of((int) number, pageSize);
    Page<Event> slice = new PageImpl<>(number * pageSize >= total ? java.util.List.of() : repo.offsetPage(range, number, pageSize), request, total);
    return pages.toModel(slice, items);
  }

  @GetMapping("/{id}")
  public ResponseEntity<EntityModel<Event>> one(@PathVariable long id) {
    Event e = repo.byId(id);
    if (e == null) return ResponseEntity.notFound().build();
    return ResponseEntity.ok(EntityModel.of(e,
        linkTo(methodOn(HateoasController.class).one(id)).withSelfRel(),
        linkTo(HateoasController.class).withRel("events")));
  }
}
