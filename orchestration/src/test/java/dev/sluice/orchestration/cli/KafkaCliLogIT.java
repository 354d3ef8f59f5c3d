package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.KraftBroker;
import dev.sluice.orchestration.KafkaBronzeYaml;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice} in a child JVM with its own logging set-up (CliLogging), against a real in-process broker: a many-batch run from a
 * 3-partition topic and a diagnose of unreachable brokers print none of kafka-clients' warnings that ask nothing of a
 * user (partitions' offsets listed while unassigned; the backlog's failed connections), and still say what matters.
 */
class KafkaCliLogIT {
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  @TempDir Path dir;

  private Path config(String servers, String topic) throws Exception {
    return Files.writeString(dir.resolve("pipelines.yaml"),
        KafkaBronzeYaml.config(dir, KafkaBronzeYaml.pipeline("events", servers, topic, 40)));
  }

  @Test
  void aKafkaRunLogsNoWarningAboutUnassignedPartitions() throws Exception {
    String topic = broker.newTopic("quiet", 3);
    broker.send(topic, null, null, IntStream.range(0, 400).mapToObj(i -> "{\"id\":" + i + "}").toList());
    SluiceProcess.Result r = SluiceProcess.run(dir, Map.of(), "run", config(broker.bootstrap(), topic).toString(),
        "--available-now");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out() + r.err()).as(r.toString()).contains("400 offsets to process")
        .doesNotContain("Not updating", "WARN");
  }

  @Test
  void anUnreachableBrokerIsSaidOnceNotInConnectionWarnings() throws Exception {
    String dead;
    try (ServerSocket s = new ServerSocket(0)) {
      dead = "127.0.0.1:" + s.getLocalPort();
    }
    SluiceProcess.Result r = SluiceProcess.run(dir, Map.of(), "diagnose", config(dead, "nowhere").toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
    assertThat(r.out() + r.err()).as(r.toString()).contains("backlog unknown: the brokers " + dead)
        .doesNotContain("could not be established");
  }
}
