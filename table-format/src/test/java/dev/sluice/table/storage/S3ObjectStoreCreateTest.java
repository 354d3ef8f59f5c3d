package dev.sluice.table.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.exceptions.StorageOutcomeUnknownException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How {@link S3ObjectStore#create} reads each answer of a scripted S3 endpoint: which failures it
 * retries, and when a 412 means "someone else" versus "maybe our own earlier attempt".
 */
class S3ObjectStoreCreateTest {
  /** Drops the connection without answering, as after a timeout or a reset. */
  private static final int DROP = -1;

  private HttpServer server;
  private final Deque<Integer> script = new ArrayDeque<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private S3ObjectStore store;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
    URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    store = new S3ObjectStore(S3Options.of("bucket", "table").withEndpoint(endpoint).withPathStyle(true)
        .withRegion("us-east-1").withCredentials("key", "secret").withMaxAttempts(3));
  }

  @AfterEach
  void stop() {
    store.close();
    server.stop(0);
  }

  private void answer(HttpExchange exchange) throws IOException {
    requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " if-none-match="
        + exchange.getRequestHeaders().getFirst("If-None-Match"));
    exchange.getRequestBody().readAllBytes();
    int status;
    synchronized (script) {
      status = script.isEmpty() ? 500 : script.poll();
    }
    if (status == DROP) {
      throw new IOException("dropping the connection"); // the JDK server closes it without a response
    }
    if (status == 200) {
      exchange.getResponseHeaders().add("ETag", "\"abc\"");
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
      return;
    }
    String code = switch (status) {
      case 409 -> "ConditionalRequestConflict";
      case 412 -> "PreconditionFailed";
      case 403 -> "AccessDenied";
      case 503 -> "SlowDown";
      default -> "InternalError";
    };
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>scripted "
        + code + "</Message><RequestId>r1</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/xml");
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  private void script(Integer... statuses) {
    script.addAll(List.of(statuses));
  }

  @Test
  void sendsAConditionalPutOnce() {
    script(200);

    store.create("_delta_log/00000000000000000000.json", new byte[] {1});

    assertThat(requests).containsExactly(
        "PUT /bucket/table/_delta_log/00000000000000000000.json if-none-match=*");
  }

  @Test
  void preconditionFailedMeansAnotherWriterCreatedIt() {
    script(412);

    assertThatThrownBy(() -> store.create("k", new byte[] {1}))
        .isInstanceOf(ObjectAlreadyExistsException.class)
        .hasMessage("Cannot create s3://bucket/table/k: it already exists");
    assertThat(requests).hasSize(1);
  }

  @Test
  void conflictIsRetriedUntilItSucceeds() {
    script(409, 409, 200);

    store.create("k", new byte[] {1});

    assertThat(requests).hasSize(3);
  }

  @Test
  void throttlingThenPreconditionFailedIsStillAlreadyExists() {
    script(503, 412);

    assertThatThrownBy(() -> store.create("k", new byte[] {1})).isInstanceOf(ObjectAlreadyExistsException.class);
    assertThat(requests).hasSize(2);
  }

  @Test
  void conflictsUntilAttemptsRunOutFailWithoutDoubt() {
    script(409, 409, 409);

    assertThatThrownBy(() -> store.create("k", new byte[] {1}))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessageStartingWith("Creating s3://bucket/table/k failed after 3 attempts: HTTP 409 ConditionalRequestConflict")
        .hasMessageEndingWith("; retry later or raise the max-attempts option");
    assertThat(requests).hasSize(3);
  }

  @Test
  void droppedConnectionThenPreconditionFailedIsAnUnknownOutcome() {
    script(DROP, 412);

    assertThatThrownBy(() -> store.create("k", new byte[] {1}))
        .isInstanceOf(StorageOutcomeUnknownException.class)
        .hasMessageStartingWith("Creating s3://bucket/table/k may or may not have taken effect: HTTP 412 PreconditionFailed")
        .hasMessageEndingWith("; read the object back to learn whether this writer created it");
    assertThat(requests).hasSize(2);
  }

  @Test
  void droppedConnectionThenSuccessIsASuccess() {
    script(DROP, 200);

    store.create("k", new byte[] {1});

    assertThat(requests).hasSize(2);
  }

  @Test
  void serverErrorsUntilAttemptsRunOutAreAnUnknownOutcome() {
    script(500, 500, 500);

    assertThatThrownBy(() -> store.create("k", new byte[] {1}))
        .isInstanceOf(StorageOutcomeUnknownException.class)
        .hasMessageStartingWith("Creating s3://bucket/table/k may or may not have taken effect: HTTP 500 InternalError");
    assertThat(requests).hasSize(3);
  }

  @Test
  void accessDeniedIsNotRetried() {
    script(403);

    assertThatThrownBy(() -> store.create("k", new byte[] {1}))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessageStartingWith("Creating s3://bucket/table/k failed: HTTP 403 AccessDenied")
        .hasMessageEndingWith("(check the credentials and that they may access bucket bucket)");
    assertThat(requests).hasSize(1);
  }

  @Test
  void overwriteIsRetriedByTheSdk() {
    script(503, 500, 200);

    store.overwrite("k", new byte[] {1});

    assertThat(requests).containsExactly("PUT /bucket/table/k if-none-match=null", "PUT /bucket/table/k if-none-match=null",
        "PUT /bucket/table/k if-none-match=null");
  }
}
