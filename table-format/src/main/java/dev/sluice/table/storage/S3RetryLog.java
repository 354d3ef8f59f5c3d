package dev.sluice.table.storage;

import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Says, at WARN, when the SDK retries an S3 request: which endpoint, operation and object, which attempt of how
 * many, and how the previous attempt ended. Without it a slow or silent endpoint shows nothing until every
 * attempt has timed out.
 */
final class S3RetryLog implements ExecutionInterceptor {
  private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);
  private static final ExecutionAttribute<Attempt> ATTEMPT = new ExecutionAttribute<>("sluice.s3.attempt");

  /** The current attempt of one call: its number, when it was sent, and the HTTP status if one came back. */
  private record Attempt(int number, long sentNanos, Integer status) {}

  private final int maxAttempts;
  private final S3Timeouts timeouts;

  S3RetryLog(int maxAttempts, S3Timeouts timeouts) {
    this.maxAttempts = maxAttempts;
    this.timeouts = timeouts;
  }

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
    Attempt previous = attributes.getAttribute(ATTEMPT);
    long now = System.nanoTime();
    int number = previous == null ? 1 : previous.number() + 1;
    attributes.putAttribute(ATTEMPT, new Attempt(number, now, null));
    if (previous == null) {
      return;
    }
    URI uri = context.httpRequest().getUri();
    String endpoint = uri.getScheme() + "://" + uri.getAuthority();
    long ms = (now - previous.sentNanos()) / 1_000_000;
    String outcome = previous.status() != null
        ? "answered HTTP " + previous.status()
        : "failed without an answer (timeouts: " + timeouts + ")";
    LOG.warn("S3 {} of {} at {}: attempt {} of {} {}, {} after it was sent; retrying (attempt {} of {})",
        attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), uri.getRawPath(), endpoint,
        number - 1, maxAttempts, outcome, S3Timeouts.text(java.time.Duration.ofMillis(ms)), number, maxAttempts);
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    Attempt current = attributes.getAttribute(ATTEMPT);
    if (current != null) {
      attributes.putAttribute(ATTEMPT,
          new Attempt(current.number(), current.sentNanos(), context.httpResponse().statusCode()));
    }
  }
}
