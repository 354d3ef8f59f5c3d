package dev.sluice.orchestration.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the HTTP server listens and the bearer token its API asks for. A server reachable from other machines
 * (any bind address that is not loopback) must have a token: {@link #of} refuses one without.
 *
 * @param host the bind address ({@code 127.0.0.1}, {@code 0.0.0.0}, a host name, {@code ::1})
 * @param port the port; 0 picks a free one ({@link SluiceHttpServer#port()} tells which)
 * @param token when present, {@code /api/**} and {@code /metrics} need {@code Authorization: Bearer <token>}
 */
public record HttpOptions(String host, int port, Optional<String> token) {
  /** {@code sluice serve}'s default address: this machine only. */
  public static final String DEFAULT_ADDRESS = "127.0.0.1:8080";
  /** The environment variable {@code sluice serve} reads the token from. */
  public static final String TOKEN_ENV = "SLUICE_API_TOKEN";

  public HttpOptions {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(token, "token");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("HTTP port " + port + " is out of range; give a port from 1 to 65535"
          + " (or 0 for a free one), e.g. --http 127.0.0.1:8080");
    }
    token = token.filter(t -> !t.isBlank());
  }

  /**
   * Options for {@code HOST:PORT} ({@code [::1]:8080} for IPv6).
   *
   * @throws IllegalArgumentException when the address is malformed, or binds beyond loopback without a token
   */
  public static HttpOptions of(String address, Optional<String> token) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException("HTTP address '" + address + "' is not HOST:PORT; write e.g. --http "
          + DEFAULT_ADDRESS + " (or 0.0.0.0:8080 with " + TOKEN_ENV + " set, to listen on every interface)");
    }
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("HTTP address '" + address + "' has no numeric port; write e.g. --http "
          + DEFAULT_ADDRESS, e);
    }
    HttpOptions o = new HttpOptions(host, port, token);
    o.requireTokenBeyondLoopback();
    return o;
  }

  /** Whether every address {@link #host} binds is a loopback one (only this machine can connect). */
  public boolean loopback() {
    try {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** @throws IllegalArgumentException when the server would be reachable from other machines without a token */
  public void requireTokenBeyondLoopback() {
    if (token.isEmpty() && !loopback()) {
      throw new IllegalArgumentException("Refusing to serve the HTTP API on " + host + ":" + port + " without a token:"
          + " that address is reachable from other machines, and the API can run and pause pipelines. Set "
          + TOKEN_ENV + " to a secret (clients send it as 'Authorization: Bearer <token>'), or bind to 127.0.0.1");
    }
  }
}
