package dev.sluice.orchestration.diagnose;

import java.util.List;

/** Everything {@code sluice diagnose} found for one pipeline, in the order it checked. */
public record PipelineDiagnosis(String pipeline, String layer, Severity severity, List<Finding> findings) {
  public PipelineDiagnosis {
    findings = List.copyOf(findings);
  }

  static PipelineDiagnosis of(String pipeline, String layer, List<Finding> findings) {
    Severity worst = Severity.OK;
    for (Finding f : findings) {
      worst = worst.worse(f.severity());
    }
    return new PipelineDiagnosis(pipeline, layer, worst, findings);
  }
}
