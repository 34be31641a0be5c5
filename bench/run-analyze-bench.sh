#!/usr/bin/env bash
# analyze vs Spark History Server rebuild vs Jackson floor (see docs/benchmarks/analyze-vs-history-server.md).
#
#   bench/run-analyze-bench.sh [--only=ablc] [--no-heap|--heap-only] [LOG [WARMUP [ROUNDS]]]
#
# Defaults: ../shared/eventlogs/other/spark-rapids-tools/gpu_oom_eventlog.zstd, 10 warm-up and 10 measured rounds.
# --only picks variants: a = SHS rebuild, b = Jackson floor, l = the floor line by line, c = ours.
#
# Builds the core modules + bench (no tests, nothing installed), then runs io.sparkscope.bench.AnalyzeBench in one
# JVM with -Xmx4g and the --add-opens list Spark needs on Java 17 (the root pom's spark.jvm.opens).
# Extra JVM options: BENCH_JAVA_OPTS (e.g. JFR: BENCH_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/b.jfr").
# Set BENCH_SKIP_BUILD=1 to reuse the last build.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

# ../shared next to the repository root (override: SPARKSCOPE_SHARED=/path/to/shared). In a git worktree placed
# elsewhere, the main checkout's ../shared is tried too.
shared="${SPARKSCOPE_SHARED:-$root/../shared}"
if [ ! -d "$shared" ] && [ -z "${SPARKSCOPE_SHARED:-}" ]; then
  common="$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)"
  if [ -n "$common" ] && [ -d "$(dirname "$common")/../shared" ]; then
    shared="$(dirname "$common")/../shared"
  fi
fi

# Arguments: options pass through; the first positional is the log (relative to the caller's directory),
# defaulting to the gpu_oom log under ../shared. The log is checked before the (slow) build.
log="$shared/eventlogs/other/spark-rapids-tools/gpu_oom_eventlog.zstd"
opts=()
rest=()
have_log=0
for a in "$@"; do
  case "$a" in
    --*) opts+=("$a") ;;
    *) if [ "$have_log" = 0 ]; then log="$a"; have_log=1; else rest+=("$a"); fi ;;
  esac
done
case "$log" in /*) ;; *) log="$PWD/$log" ;; esac
if [ ! -f "$log" ]; then
  echo "run-analyze-bench: event log not found: $log" >&2
  echo "  The benchmark reads ../shared/eventlogs next to the repository root (third-party logs, not part of the" >&2
  echo "  project); set SPARKSCOPE_SHARED=/path/to/shared or give a .zstd event log as the first argument." >&2
  exit 2
fi
cd "$root"

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -f bench/target/classpath.txt ]; then
  echo "building the core modules and bench (mvn -q -DskipTests -pl bench -am package) ..." >&2
  mvn -q -DskipTests -pl bench -am package >&2
fi

# The JVM flags Spark needs on Java 17, read from the root pom so they stay in one place.
opens="$(sed -n 's:.*<spark.jvm.opens>\(.*\)</spark.jvm.opens>.*:\1:p' pom.xml)"
if [ -z "$opens" ]; then
  echo "run-analyze-bench: cannot read spark.jvm.opens from pom.xml" >&2
  exit 1
fi

cp="bench/target/classes:$(cat bench/target/classpath.txt)"
# shellcheck disable=SC2086
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
exec java -Xmx4g $opens ${BENCH_JAVA_OPTS:-} \
  -Dsparkscope.repo.root="$root" \
  -cp "$cp" io.sparkscope.bench.AnalyzeBench ${opts[@]+"${opts[@]}"} "$log" ${rest[@]+"${rest[@]}"}
