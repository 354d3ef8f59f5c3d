package dev.sluice.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs the table-format and streaming engine benchmarks and prints one JSON line per figure.
 *
 * <p>Usage: {@code Bench [append|writer|snapshot|merge|ingest|microbatch|state|sessions|windows|all|pipeline|scheduler|kafka-sink|kafka-source] [--rows N] [--dir DIR]}.
 * {@code kafka-sink} (not part of {@code all}) compares the Kafka sink's at-least-once and exactly-once throughput
 * on an in-process broker ({@link KafkaSinkBench}; {@code --rows} default 2,000,000 in 20 batches).
 * {@code kafka-source} (not part of {@code all}): JSON order events in 4 partitions → a YAML bronze pipeline, events/s
 * and per-batch latency ({@link KafkaSourceBench}; {@code --rows} events, 100,000 per batch); with
 * {@code --latency [--rate 10000] [--seconds 60]}, Kafka → Delta end-to-end latency at a steady send rate
 * ({@link KafkaLatencyBench}).
 * Figures are measured on a warm JVM after a smaller warm-up pass; they are not assertions. {@code pipeline} (not
 * part of {@code all}: it takes minutes) runs {@code --rows} order events through examples/orders, bronze to gold
 * in this JVM. {@code sessions} (not part of {@code all}) runs 1 M users' sessions through flatMapGroupsWithState
 * ({@link ArbitraryStateBench}). {@code scheduler [--pipelines 100] [--nodes 2] [--seconds 60] [--db-url jdbc:postgresql://…]} (not
 * part of {@code all}) measures the cluster store's scheduling overhead ({@link SchedulerBench}); without
 * {@code --db-url} it starts an embedded PostgreSQL. {@code Bench medallion [options]} ({@link MedallionCommand},
 * {@code --help}) compares Sluice, Spark and DuckDB as whole processes; {@code incremental} ({@link
 * IncrementalCommand}) measures the +1 % increment with and without deletion vectors. {@code state [--keys 10000000]
 * [--state-store inmemory|rocksdb|both]} ({@link StateStoreBench}) compares the state stores at scale; {@code all}
 * runs the smaller in-memory {@link StatefulBench} instead.
 */
public final class Bench {
  private Bench() {}

  public static void main(String[] args) throws Exception {
    String which = args.length > 0 ? args[0] : "all";
    if (which.equals("medallion")) {
      System.exit(new CommandLine(new MedallionCommand()).execute(Arrays.copyOfRange(args, 1, args.length)));
    }
    if (which.equals("incremental")) {
      System.exit(new CommandLine(new IncrementalCommand()).execute(Arrays.copyOfRange(args, 1, args.length)));
    }
    int rows = 2_000_000;
    Path dir = null;
    int pipelines = 100;
    int nodes = 2;
    int seconds = 60;
    String dbUrl = null;
    long keys = 10_000_000;
    String stateStore = "both";
    boolean latency = false;
    int rate = 10_000;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--pipelines" -> pipelines = Integer.parseInt(args[++i]);
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--db-url" -> dbUrl = args[++i];
        case "--keys" -> keys = Long.parseLong(args[++i]);
        case "--state-store" -> stateStore = args[++i];
        case "--latency" -> latency = true;
        case "--rate" -> rate = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("Unknown option " + args[i]);
      }
    }
    if (dir == null) {
      dir = Files.createTempDirectory("sluice-bench");
    }
    if (which.equals("append") || which.equals("all")) {
      System.out.println(Json.write(AppendBench.run(dir.resolve("append"), rows)));
    }
    if (which.equals("writer") || which.equals("all")) {
      System.out.println(Json.write(ParquetWriterBench.run(dir.resolve("writer"), Math.min(rows, 1_000_000))));
    }
    if (which.equals("snapshot") || which.equals("all")) {
      for (int commits : List.of(100, 1_000, 10_000)) {
        System.out.println(Json.write(SnapshotLoadBench.run(dir.resolve("snapshot-" + commits), commits)));
      }
    }
    if (which.equals("ingest") || which.equals("microbatch") || which.equals("all")) {
      System.out.println(Json.write(IngestBench.batchOverhead(dir.resolve("ingest-overhead"))));
    }
    if (which.equals("ingest") || which.equals("all")) {
      System.out.println(Json.write(IngestBench.throughput(dir.resolve("ingest-throughput"), 1_000_000, 20)));
    }
    if (which.equals("all")) {
      System.out.println(Json.write(StatefulBench.run(dir.resolve("state"), 1_000_000, 10, 300_000)));
    }
    if (which.equals("state")) {
      StateStoreBench.run(dir.resolve("state-stores"), keys, stateStore)
          .forEach(figure -> System.out.println(Json.write(figure)));
    }
    if (which.equals("sessions")) {
      System.out.println(Json.write(ArbitraryStateBench.run(dir.resolve("sessions"), 1_000_000, 12, 250_000)));
    }
    if (which.equals("windows")) {
      System.out.println(Json.write(WindowsJoinBench.sessions(dir.resolve("windows"), rows, 20)));
      System.out.println(Json.write(WindowsJoinBench.join(dir.resolve("windows"), rows, 20)));
    }
    if (which.equals("scheduler")) {
      System.out.println(Json.write(SchedulerBench.run(dir.resolve("scheduler"), pipelines, nodes, seconds,
          java.util.Optional.ofNullable(dbUrl))));
    }
    if (which.equals("kafka-source") && latency) {
      System.out.println(Json.write(KafkaLatencyBench.run(dir.resolve("kafka-latency"), rate, seconds)));
    } else if (which.equals("kafka-source")) {
      System.out.println(Json.write(KafkaSourceBench.run(dir.resolve("kafka-source"), rows, 100_000)));
    }
    if (which.equals("kafka-sink")) {
      System.out.println(Json.write(KafkaSinkBench.run(dir.resolve("kafka-sink"), rows, 20)));
    }
    if (which.equals("pipeline")) {
      PipelineBench.run(dir.resolve("pipeline"), rows).forEach(figure -> System.out.println(Json.write(figure)));
    }
    if (which.equals("merge") || which.equals("all")) {
      System.out.println(Json.write(MergeBench.run(dir.resolve("merge-recent"), 1_000_000, true)));
      System.out.println(Json.write(MergeBench.run(dir.resolve("merge-uniform"), 1_000_000, false)));
    }
  }
}
