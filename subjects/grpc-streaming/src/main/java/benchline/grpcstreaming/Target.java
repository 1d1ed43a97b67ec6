// Where a client connects: "host:port", "[v6]:port" or an http:// URL (Helidon's natural form), all plaintext HTTP/2.
package benchline.grpcstreaming;

import java.net.URI;

record Target(String host, int port) {
  static Target parse(String s) {
    URI uri;
    try {
      uri = URI.create(s.contains("://") ? s : "http://" + s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("target \"" + s + "\" is not host:port or a URL");
    }
    if (uri.getScheme() != null && !uri.getScheme().equals("http")) {
      throw new IllegalArgumentException("target \"" + s + "\": only plaintext http:// is supported");
    }
    if (uri.getHost() == null || uri.getPort() < 1) throw new IllegalArgumentException("target \"" + s + "\" needs a host and a port");
    return new Target(uri.getHost(), uri.getPort());
  }

  /** host without IPv6 brackets, for socket addresses. */
  String bareHost() {
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }

  String url() {
    return "http://" + host + ":" + port;
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
