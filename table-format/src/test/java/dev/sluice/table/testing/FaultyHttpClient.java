package dev.sluice.table.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Wraps the S3 client's HTTP client so that a share of the HTTP requests misbehave, below the SDK's retries (so the
 * store sees what it would see from a flaky S3): a 500 InternalError or 503 SlowDown answered without forwarding,
 * a read timeout before forwarding, a response lost after the server did the request (a write that took effect,
 * reported as a timeout), or a slow request. Seeded, so a failing run repeats.
 */
public final class FaultyHttpClient implements SdkHttpClient {
  /** The kinds of fault, counted separately. */
  public enum Fault { ERROR_500, ERROR_503, TIMEOUT, LOST_RESPONSE, SLOW }

  private final SdkHttpClient delegate;
  private final Random random;
  private final double rate;
  private final AtomicLong requests = new AtomicLong();
  private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
  private volatile boolean enabled = true;

  public FaultyHttpClient(SdkHttpClient delegate, long seed, double rate) {
    this.delegate = delegate;
    this.random = new Random(seed);
    this.rate = rate;
    for (Fault f : Fault.values()) {
      injected.put(f, new AtomicLong());
    }
  }

  public FaultyHttpClient enabled(boolean value) {
    enabled = value;
    return this;
  }

  public long requests() {
    return requests.get();
  }

  public Map<Fault, Long> injected() {
    Map<Fault, Long> out = new EnumMap<>(Fault.class);
    injected.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  private Fault next(boolean write) {
    requests.incrementAndGet();
    if (!enabled) {
      return null;
    }
    Fault f;
    synchronized (random) {
      if (random.nextDouble() >= rate) {
        return null;
      }
      f = Fault.values()[random.nextInt(Fault.values().length)];
    }
    if (f == Fault.LOST_RESPONSE && !write) {
      f = Fault.TIMEOUT;
    }
    injected.get(f).incrementAndGet();
    return f;
  }

  private long slowMillis() {
    synchronized (random) {
      return 50 + random.nextInt(250);
    }
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    SdkHttpMethod method = request.httpRequest().method();
    Fault fault = next(method == SdkHttpMethod.PUT || method == SdkHttpMethod.POST || method == SdkHttpMethod.DELETE);
    if (fault == Fault.ERROR_500 || fault == Fault.ERROR_503 || fault == Fault.TIMEOUT) {
      return new ExecutableHttpRequest() {
        @Override
        public HttpExecuteResponse call() throws IOException {
          if (fault == Fault.TIMEOUT) {
            throw new SocketTimeoutException("Read timed out (injected)");
          }
          return error(fault == Fault.ERROR_500 ? 500 : 503, fault == Fault.ERROR_500 ? "InternalError" : "SlowDown");
        }

        @Override
        public void abort() {}
      };
    }
    ExecutableHttpRequest real = delegate.prepareRequest(request);
    if (fault == null) {
      return real;
    }
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        if (fault == Fault.SLOW) {
          try {
            Thread.sleep(slowMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
          }
          return real.call();
        }
        HttpExecuteResponse done = real.call();   // LOST_RESPONSE: the server did it, the client never hears
        if (done.responseBody().isPresent()) {
          done.responseBody().get().readAllBytes();
          done.responseBody().get().close();
        }
        throw new SocketTimeoutException("Read timed out after the request was sent (injected lost response)");
      }

      @Override
      public void abort() {
        real.abort();
      }
    };
  }

  private static HttpExecuteResponse error(int status, String code) {
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>injected "
        + status + "</Message><RequestId>chaos</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
    return HttpExecuteResponse.builder()
        .response(SdkHttpResponse.builder().statusCode(status).putHeader("Content-Type", "application/xml")
            .putHeader("Content-Length", Integer.toString(body.length)).build())
        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(body)))
        .build();
  }

  @Override
  public String clientName() {
    return delegate.clientName();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
