package dev.sluice.orchestration.http;

import dev.sluice.config.PipelineConfig;
import dev.sluice.orchestration.http.internal.Api;
import dev.sluice.orchestration.http.internal.Backlogs;
import dev.sluice.orchestration.http.internal.BatchLog;
import dev.sluice.orchestration.http.internal.SluiceMetrics;
import io.javalin.Javalin;
import java.net.URI;
import java.util.stream.Collectors;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The service's HTTP server (Javalin on Jetty): the JSON API, {@code /metrics} for Prometheus, {@code /healthz},
 * {@code /readyz} and the dashboard at {@code /}. Start it after the service; close it before stopping the
 * service.
 *
 * <p>Routes: {@code GET /api/pipelines}, {@code GET /api/pipelines/{name}}, {@code GET /api/pipelines/{name}/runs
 * [?limit=N]}, {@code POST /api/pipelines/{name}/run|pause|resume}, {@code GET /api/tables/{name}}, {@code GET
 * /metrics}, {@code GET /healthz}, {@code GET /readyz}, {@code GET /}.
 */
public final class SluiceHttpServer implements AutoCloseable {
  private final Javalin app;
  private final ServiceView service;
  private final BatchLog batches;
  private final SluiceMetrics metrics;
  private final HttpOptions options;

  private SluiceHttpServer(Javalin app, ServiceView service, BatchLog batches, SluiceMetrics metrics,
      HttpOptions options) {
    this.app = app;
    this.service = service;
    this.batches = batches;
    this.metrics = metrics;
    this.options = options;
  }

  /**
   * Starts serving {@code service} as {@code options} say.
   *
   * @throws IllegalArgumentException when the address reaches beyond loopback and no token is set
   * @throws IllegalStateException when the server cannot bind (the port is taken, say)
   */
  public static SluiceHttpServer start(ServiceView service, HttpOptions options) {
    options.requireTokenBeyondLoopback();
    BatchLog batches = new BatchLog(service.config().pipelines().stream().map(PipelineConfig::name)
        .collect(Collectors.toSet()));
    Backlogs backlogs = new Backlogs(service.session(), service.config());
    SluiceMetrics metrics = new SluiceMetrics(service, batches, backlogs);
    Api api = new Api(service, options, batches, backlogs, metrics);
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("sluice-http");
    // the service decides when the JVM ends, not idle HTTP workers
    threads.setDaemon(true);
    Javalin app = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.startup.showOldJavalinVersionWarning = false;
      cfg.jetty.host = options.host();
      cfg.jetty.port = options.port();
      cfg.jetty.threadPool = threads;
      api.routes(cfg);
    });
    service.session().streams().addListener(batches);
    try {
      app.start();
    } catch (RuntimeException e) {
      service.session().streams().removeListener(batches);
      metrics.close();
      throw new IllegalStateException("Could not start the HTTP server on " + options.host() + ":" + options.port()
          + ": " + e.getMessage() + ". Is the port taken? Choose another with --http HOST:PORT", e);
    }
    return new SluiceHttpServer(app, service, batches, metrics, options);
  }

  /** The port it listens on (the one picked when the options said 0). */
  public int port() {
    return app.port();
  }

  /** {@code http://host:port/}, with a loopback host when the server listens on every interface. */
  public URI uri() {
    String host = options.host();
    if (host.equals("0.0.0.0") || host.equals("::") || host.isEmpty()) {
      host = "127.0.0.1";
    }
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/");
  }

  @Override
  public void close() {
    service.session().streams().removeListener(batches);
    app.stop();
    metrics.close();
  }
}
