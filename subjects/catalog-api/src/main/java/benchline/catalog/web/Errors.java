// Turns refused parameters into 400 answers whose message says what was wrong and what is accepted.
package benchline.catalog.web;

import benchline.catalog.BadRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

@RestControllerAdvice
public class Errors {

  @ExceptionHandler(BadRequest.class)
  public ResponseEntity<Map<String, Object>> badRequest(BadRequest e, HttpServletRequest req) {
    return body(e.getMessage(), req);
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  public ResponseEntity<Map<String, Object>> mismatch(MethodArgumentTypeMismatchException e, HttpServletRequest req) {
    return body(e.getName() + "=" + e.getValue() + " is not a valid " + e.getName(), req);
  }

  private static ResponseEntity<Map<String, Object>> body(String message, HttpServletRequest req) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", 400);
    out.put("error", "Bad Request");
    out.put("message", message);
    out.put("path", req.getRequestURI());
    return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(MediaType.APPLICATION_JSON).body(out);
  }
}
