package dev.sluice.orchestration.http.internal;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The dashboard's files, served from the jar: the page, its script and style, and uPlot (the charts) from its
 * webjar — no CDN, so it works on a machine without internet access.
 */
final class Dashboard {
  private static final String OWN = "/dev/sluice/orchestration/http/dashboard/";
  private static final String UPLOT = "/META-INF/resources/webjars/uplot/" + uplotVersion() + "/";

  /** URL path → classpath resource and content type. */
  private static final Map<String, String[]> FILES = Map.of(
      "/", new String[] {OWN + "index.html", "text/html; charset=utf-8"},
      "/dashboard.js", new String[] {OWN + "dashboard.js", "text/javascript; charset=utf-8"},
      "/dashboard.css", new String[] {OWN + "dashboard.css", "text/css; charset=utf-8"},
      "/assets/uPlot.iife.min.js", new String[] {UPLOT + "dist/uPlot.iife.min.js", "text/javascript; charset=utf-8"},
      "/assets/uPlot.min.css", new String[] {UPLOT + "dist/uPlot.min.css", "text/css; charset=utf-8"},
      "/assets/uPlot.LICENSE", new String[] {UPLOT + "LICENSE", "text/plain; charset=utf-8"});

  void routes(JavalinConfig cfg) {
    FILES.forEach((path, file) -> cfg.routes.get(path, ctx -> serve(ctx, file[0], file[1])));
  }

  private static void serve(Context ctx, String resource, String type) {
    InputStream in = Dashboard.class.getResourceAsStream(resource);
    if (in == null) {
      throw new NotFoundResponse("The dashboard file " + resource + " is missing from the classpath");
    }
    ctx.contentType(type).header("Cache-Control", "no-cache").result(in);
  }

  private static String uplotVersion() {
    try (InputStream in = Dashboard.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
      if (in == null) {
        throw new IllegalStateException("The uPlot webjar (org.webjars.npm:uplot) is not on the classpath; the"
            + " dashboard needs it");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
