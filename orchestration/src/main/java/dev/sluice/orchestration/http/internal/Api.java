package dev.sluice.orchestration.http.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.sluice.config.PipelineConfig;
import dev.sluice.orchestration.http.HttpOptions;
import dev.sluice.orchestration.http.ServiceView;
import io.javalin.config.JavalinConfig;
import io.javalin.http.ConflictResponse;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.http.NotFoundResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes: the JSON API under {@code /api}, {@code /metrics}, the probes and the dashboard. With a token,
 * {@code /api/**} and {@code /metrics} answer 401 unless the request carries {@code Authorization: Bearer <token>};
 * the probes and the dashboard's static files (which hold no data: the page asks the API) stay open.
 */
public final class Api {
  private static final Logger LOG = LoggerFactory.getLogger(Api.class);
  static final String JSON_TYPE = "application/json";
  private static final int RUNS_LIMIT = 100;

  private final ServiceView service;
  private final Optional<byte[]> token;
  private final PipelineJson pipelines;
  private final TableJson tables;
  private final SluiceMetrics metrics;
  private final Dashboard dashboard = new Dashboard();

  public Api(ServiceView service, HttpOptions options, BatchLog batches, Backlogs backlogs, SluiceMetrics metrics) {
    this.service = service;
    this.token = options.token().map(t -> t.getBytes(StandardCharsets.UTF_8));
    this.pipelines = new PipelineJson(service, batches, backlogs);
    this.tables = new TableJson(service.session(), service.config());
    this.metrics = metrics;
  }

  public void routes(JavalinConfig cfg) {
    Handler auth = this::authorize;
    cfg.routes.before("/api/*", auth);
    cfg.routes.before("/metrics", auth);
    cfg.routes.get("/api/pipelines", ctx -> json(ctx, 200, pipelines.list()));
    cfg.routes.get("/api/pipelines/{name}", ctx -> json(ctx, 200, pipelines.detail(pipeline(ctx))));
    cfg.routes.get("/api/pipelines/{name}/runs", ctx -> json(ctx, 200, pipelines.runs(pipeline(ctx), limit(ctx))));
    cfg.routes.post("/api/pipelines/{name}/run", this::run);
    cfg.routes.post("/api/pipelines/{name}/pause", ctx -> {
      PipelineConfig p = pipeline(ctx);
      service.pause(p.name());
      json(ctx, 200, Map.of("pipeline", p.name(), "paused", true));
    });
    cfg.routes.post("/api/pipelines/{name}/resume", ctx -> {
      PipelineConfig p = pipeline(ctx);
      service.resume(p.name());
      json(ctx, 200, Map.of("pipeline", p.name(), "paused", false));
    });
    // table names hold slashes (bronze/orders): <name> matches them
    cfg.routes.get("/api/tables/<name>", ctx -> json(ctx, 200, tables.of(ctx.pathParam("name"))
        .orElseThrow(() -> new NotFoundResponse("No table named '" + ctx.pathParam("name") + "' in the"
            + " configuration; its tables are " + tables.names().keySet()))));
    cfg.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
        .result(metrics.scrape()));
    cfg.routes.get("/healthz", ctx -> json(ctx, 200, Map.of("status", "ok")));
    cfg.routes.get("/readyz", ctx -> {
      boolean ready = service.ready();
      json(ctx, ready ? 200 : 503, Map.of("status", ready ? "ready" : "not ready"));
    });
    dashboard.routes(cfg);
    cfg.routes.exception(HttpResponseException.class, (e, ctx) -> json(ctx, e.getStatus(),
        PipelineJson.error(e.getMessage())));
    cfg.routes.exception(IllegalStateException.class, (e, ctx) -> json(ctx, 409, PipelineJson.error(e.getMessage())));
    cfg.routes.exception(Exception.class, (e, ctx) -> {
      LOG.warn("HTTP {} {} failed", ctx.method(), ctx.path(), e);
      json(ctx, 500, PipelineJson.error(e.toString()));
    });
  }

  private void run(Context ctx) {
    PipelineConfig p = pipeline(ctx);
    if (service.paused(p.name())) {
      throw new ConflictResponse("Pipeline " + p.name() + " is paused, so a fire now would wait for the resume;"
          + " resume it first (POST /api/pipelines/" + p.name() + "/resume)");
    }
    service.trigger(p.name());
    json(ctx, 202, Map.of("pipeline", p.name(), "fired", true));
  }

  private void authorize(Context ctx) {
    if (token.isEmpty()) {
      return;
    }
    String h = ctx.header("Authorization");
    byte[] given = h != null && h.regionMatches(true, 0, "Bearer ", 0, 7)
        ? h.substring(7).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
    if (!MessageDigest.isEqual(given, token.get())) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"sluice\"");
      json(ctx, 401, PipelineJson.error(h == null ? "This API needs 'Authorization: Bearer <token>' (the token is "
          + HttpOptions.TOKEN_ENV + " of the service)" : "The bearer token is wrong; send the service's "
          + HttpOptions.TOKEN_ENV));
      ctx.skipRemainingHandlers();
    }
  }

  private PipelineConfig pipeline(Context ctx) {
    String name = ctx.pathParam("name");
    return service.config().pipeline(name).orElseThrow(() -> new NotFoundResponse("No pipeline named '" + name
        + "' in the configuration; the pipelines are "
        + service.config().pipelines().stream().map(PipelineConfig::name).toList()));
  }

  private static int limit(Context ctx) {
    String l = ctx.queryParam("limit");
    if (l == null) {
      return RUNS_LIMIT;
    }
    try {
      int n = Integer.parseInt(l);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // falls through to the refusal
    }
    throw new io.javalin.http.BadRequestResponse("limit must be a whole number of at least 1, got '" + l + "'");
  }

  static void json(Context ctx, int status, Object body) {
    try {
      ctx.status(status).contentType(JSON_TYPE).result(PipelineJson.JSON.writeValueAsString(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not render the response as JSON", e);
    }
  }
}
