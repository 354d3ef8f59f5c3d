package dev.sluice.orchestration.http;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricsProcessor;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.walkers.CollectorPrometheusMetricsWalker;

/** {@code /metrics} read by a Prometheus text-format parser (Hawkular's prometheus-scraper), as a scraper would. */
record PrometheusText(List<MetricFamily> families) {
  static PrometheusText parse(String text) {
    CollectorPrometheusMetricsWalker walker = new CollectorPrometheusMetricsWalker();
    new TextPrometheusMetricsProcessor(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), walker).walk();
    return new PrometheusText(walker.getAllMetricFamilies());
  }

  Optional<MetricFamily> family(String name) {
    return families.stream().filter(f -> f.getName().equals(name)).findFirst();
  }

  /** The one metric of family {@code name} whose labels include {@code labels}. */
  <M extends Metric> M metric(String name, Class<M> type, Map<String, String> labels) {
    MetricFamily f = family(name).orElseThrow(() -> new AssertionError("No metric family " + name + " in "
        + families.stream().map(MetricFamily::getName).toList()));
    List<Metric> found = f.getMetrics().stream()
        .filter(m -> m.getLabels().entrySet().containsAll(labels.entrySet())).toList();
    if (found.size() != 1) {
      throw new AssertionError("Expected one " + name + labels + ", found " + found.size() + " among "
          + f.getMetrics().stream().map(Metric::getLabels).toList());
    }
    return type.cast(found.get(0));
  }
}
