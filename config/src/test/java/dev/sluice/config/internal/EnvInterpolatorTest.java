package dev.sluice.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvInterpolatorTest {
  private final EnvInterpolator env = new EnvInterpolator(Map.of("A", "1", "EMPTY", ""));

  @Test
  void replacesReferencesAndEscapes() {
    Problems problems = new Problems();
    assertThat(env.resolve("x${env:A}y${env:B:-d:e}z$${env:A}", "p", problems)).isEqualTo("x1yd:ez${env:A}");
    assertThat(env.resolve("${env:EMPTY}|${env:EMPTY:-dflt}|${env:B:-}", "p", problems)).isEqualTo("|dflt|");
    assertThat(env.resolve("no dollar", "p", problems)).isEqualTo("no dollar");
    assertThat(env.resolve("cost: $5", "p", problems)).isEqualTo("cost: $5");
    assertThat(problems.isEmpty()).isTrue();
  }

  @Test
  void anUnsetVariableIsAProblemNamingItAndThePath() {
    Problems problems = new Problems();
    assertThat(env.resolve("${env:MISSING}/x", "pipelines[0].source.path", problems)).isNull();
    assertThat(problems.sorted()).singleElement().hasToString(
        "pipelines[0].source.path: environment variable MISSING is not set (line 1)");
  }

  @Test
  void soleReferenceAcceptsOnlyABareReference() {
    assertThat(EnvInterpolator.soleReference("${env:AWS_SECRET_ACCESS_KEY}")).contains("AWS_SECRET_ACCESS_KEY");
    assertThat(EnvInterpolator.soleReference("${env:K:-literal}")).isEmpty();
    assertThat(EnvInterpolator.soleReference("prefix${env:K}")).isEmpty();
    assertThat(EnvInterpolator.soleReference("AKIAEXAMPLE")).isEmpty();
  }
}
