package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineGraphTest {
  private final SluiceConfig config = ConfigLoader.load(OrdersScenario.examples().resolve("orders/pipelines.yaml"),
      Map.of());

  private static List<String> names(List<PipelineConfig> pipelines) {
    return pipelines.stream().map(PipelineConfig::name).toList();
  }

  @Test
  void allPipelinesUpstreamFirst() {
    assertThat(names(PipelineGraph.ordered(config, List.of())))
        .containsExactly("orders_bronze", "orders_silver", "revenue_gold");
  }

  @Test
  void aNamedPipelineBringsItsUpstreamsTransitively() {
    assertThat(names(PipelineGraph.ordered(config, List.of("revenue_gold"))))
        .containsExactly("orders_bronze", "orders_silver", "revenue_gold");
    assertThat(names(PipelineGraph.ordered(config, List.of("orders_bronze")))).containsExactly("orders_bronze");
  }

  @Test
  void anUnknownNameIsRefusedListingTheKnownOnes() {
    assertThatThrownBy(() -> PipelineGraph.ordered(config, List.of("gold")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("revenue_gold");
  }
}
