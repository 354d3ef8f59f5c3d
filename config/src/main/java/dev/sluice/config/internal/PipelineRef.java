package dev.sluice.config.internal;

import dev.sluice.config.Layer;
import java.util.List;
import java.util.Map;

/**
 * What the reference checks need of one pipeline, read even when the rest of it is broken; null means absent or
 * invalid. {@code joinPipelines} maps a join's index to the pipeline it names.
 */
record PipelineRef(
    int index,
    String name,
    Layer layer,
    String sourcePipeline,
    Map<Integer, String> joinPipelines,
    List<String> after,
    String sinkTable,
    String streamJoinPipeline) {

  String path() {
    return "pipelines[" + index + "]";
  }
}
