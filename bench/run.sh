#!/usr/bin/env bash
# Runs Sluice's benchmarks (dev.sluice.bench.Bench); each prints JSON lines. Builds Sluice and the bench module
# first when they are not built (tests skipped); after changing Sluice, rebuild with
#   mvn -B -ntp -q -DskipTests package -pl bench -am
# Usage: bench/run.sh medallion [--events N] [--rounds N] [--xmx 1g] [--skip-spark] [--skip-duckdb] [--data DIR] ...
#        bench/run.sh kafka-source [--rows 1000000]   (JSON events in 4 partitions -> Kafka bronze: events/s, batch latency)
#        bench/run.sh kafka-source --latency [--rate 10000] [--seconds 60]   (Kafka -> Delta end-to-end latency: median, p90, p99)
#        bench/run.sh microbatch | snapshot | append | writer | ingest | state | sessions | windows | merge | pipeline | all   [--rows N] [--dir DIR]
#        bench/run.sh state [--keys 10000000] [--state-store inmemory|rocksdb|both]   (give the in-memory run a big heap: BENCH_JAVA_OPTS=-Xmx4g)
# Extra JVM options of the bench's own JVM: BENCH_JAVA_OPTS (Sluice's: medallion --sluice-java-opts).
set -euo pipefail
BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
CLASSPATH_FILE="$BENCH/target/classpath.txt"

built() {
  [ -f "$CLASSPATH_FILE" ] && [ -f "$BENCH/target/classes/dev/sluice/bench/Bench.class" ] \
    && [ -f "$ROOT/orchestration/target/classpath.txt" ] || return 1
  local entries entry
  IFS=: read -r -a entries < "$CLASSPATH_FILE"
  for entry in "${entries[@]}"; do
    [ -e "$entry" ] || return 1
  done
}

if ! built; then
  command -v java >/dev/null || { echo "bench: java not found; install Java 17 or newer" >&2; exit 1; }
  command -v mvn >/dev/null || { echo "bench: mvn not found; install Maven 3.8 or newer" >&2; exit 1; }
  echo "bench: building Sluice and the bench (tests skipped; a minute or two)..." >&2
  if ! (cd "$ROOT" && mvn -B -ntp -q -DskipTests package -pl bench -am >&2); then
    echo "bench: the build failed (output above); fix it, or run: mvn -B -ntp -DskipTests package -pl bench -am" >&2
    exit 1
  fi
fi

cd "$ROOT"
# The launcher records its class-data-sharing archive on its first start after a build (unless SLUICE_CDS=off): do it
# here, so that no measured run pays for it.
"$ROOT/sluice" --version >/dev/null
# shellcheck disable=SC2086  # BENCH_JAVA_OPTS holds several options
exec java ${BENCH_JAVA_OPTS:-} -cp "$BENCH/target/classes:$(cat "$CLASSPATH_FILE")" dev.sluice.bench.Bench "$@"
