// The two gRPC stacks under test.
package benchline.grpcstreaming;

import java.util.Locale;

enum Impl {
  NETTY, HELIDON;

  static Impl parse(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "netty" -> NETTY;
      case "helidon" -> HELIDON;
      default -> throw new IllegalArgumentException("implementation \"" + s + "\" is neither netty nor helidon");
    };
  }

  String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
