#!/usr/bin/env bash
# Decoding on several threads (docs/benchmarks/decode-threads.md), in one invocation, on one generated log of
# STAGES × TASKS tasks (SyntheticLog through HugeLogTool, written once into $HUGE_LOG_DIR/zstd and compressed with
# `zstd -1`, as Spark writes a log with spark.eventLog.compress=true and its default zstd level):
#  1. the single-threaded Jackson floor: AnalyzeBench (b), zstd-jni + one JsonParser's nextToken() over the whole
#     decompressed stream, 1 warm-up + ROUNDS measured, in one JVM;
#  2. ROUNDS rounds, each: `analyze` (the real command, one JVM per run, $HEAP) with --decode-threads 1, then 2, then
#     `import` (--decode-threads 2, $HEAP) into a fresh database of a PostgreSQL of the bench's own
#     (bench/own-postgres.sh), migrated beforehand: wall time, CPU (user + sys) and peak RSS from /usr/bin/time -v;
# then the ratios on medians: analyze(2)/floor (target ≤ 0.70), analyze(1)/floor, analyze(1)/analyze(2) (the
# scaling) and import/analyze(2) (target ≤ 1.30).
#
#   bench/decode-threads.sh [stages=100] [tasksPerStage=10000] [rounds=3]
#
# A smoke run (seconds, not a measurement): bench/decode-threads.sh 2 2000 1
# Needs zstd, GNU time (/usr/bin/time) and Debian's postgresql binaries (not its server on 5432).
# Environment: HEAP (default -Xmx256m), HUGE_LOG_DIR (default /tmp/sparkscope-huge-log), REBUILD=1 to rebuild the jar.
set -euo pipefail
cd "$(dirname "$0")/.."
STAGES=${1:-100}; TASKS=${2:-10000}; ROUNDS=${3:-3}
WORK=${HUGE_LOG_DIR:-/tmp/sparkscope-huge-log}
HEAP=${HEAP:--Xmx256m}
command -v zstd >/dev/null || { echo "zstd missing: apt-get install -y zstd" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 2; }
source bench/own-postgres.sh
fresh_db() { own_psql -d postgres -qc "DROP DATABASE IF EXISTS $1" && own_psql -d postgres -qc "CREATE DATABASE $1"; }
url() { echo "jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/$1"; }

[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
[ -f bench/target/classpath.txt ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl bench -am package -DskipTests
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/decode-threads-cp.txt \
  -Dmdep.includeScope=test
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/decode-threads-cp.txt)"
JAR=server/target/sparkscope.jar
mkdir -p "$WORK/zstd"
NAME="application_1764000000000_9003"
LOG="$WORK/zstd/$NAME.zstd"
# one log per size: a smoke run does not leave a small log where the real run looks for its own
if [ ! -f "$LOG" ] || [ "$(cat "$LOG.size" 2>/dev/null)" != "$STAGES $TASKS" ]; then
  echo "writing the $((STAGES * TASKS))-task log once, then zstd -1…" >&2
  rm -f "$LOG" "$WORK/zstd/$NAME"
  java -cp "$CP" io.sparkscope.server.cli.HugeLogTool write "$WORK/zstd/$NAME" "$STAGES" "$TASKS"
  zstd -q -1 --rm "$WORK/zstd/$NAME" -o "$LOG"
  echo "$STAGES $TASKS" >"$LOG.size"
fi
JSON_BYTES=$(zstd -lv "$LOG" 2>/dev/null | awk -F': *' '/Decompressed Size/ {print $2}' | head -1)

wall() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"; }
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$1"; }
rss() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# $(date -u +%FT%TZ) $(nproc) vCPU, $(free -m | awk '/Mem:/ {print $2}') MB RAM, $(java -version 2>&1 | head -1), $HEAP,"\
  "$(own_psql -d postgres -qtAc 'SHOW server_version'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "log: $LOG, $(du -h "$LOG" | cut -f1) zstd, ${JSON_BYTES:-?} of JSON, $((STAGES * TASKS)) tasks"

echo "## 1. the single-threaded Jackson floor (AnalyzeBench (b), 1 warm-up + $ROUNDS)"
BENCH_SKIP_BUILD=1 bench/run-analyze-bench.sh --only=b --no-heap --no-cross-check "$LOG" 1 "$ROUNDS" \
  | tee "$WORK/floor.txt"
FLOOR=$(awk -F'|' '/^\| \(b\) floor/ { gsub(/ /, "", $3); print $3 / 1000 }' "$WORK/floor.txt")
echo "floor: ${FLOOR} s"

echo "## 2. rounds of analyze with 1 and 2 decoding threads, then import with 2 ($ROUNDS rounds)"
# An import and the analyses it is compared with run in the same round, a few seconds apart: this machine's speed
# drifts by 10-20 % over minutes, and a ratio of runs minutes apart would measure the drift.
: >"$WORK/analyze-1.txt"; : >"$WORK/analyze-2.txt"; : >"$WORK/import-2.txt"; : >"$WORK/ratio.txt"
for r in $(seq "$ROUNDS"); do
  fresh_db decode_import
  # migrated first, as a production database is: the import's time is the import's
  java -jar $JAR prune --older-than 1h --dry-run --db "$(url decode_import)" --user postgres >/dev/null 2>&1
  # the previous round's rows (and the dropped database) written out first, so no round pays for the one before
  own_psql -d postgres -qc CHECKPOINT; sleep 3
  for t in 1 2; do
    /usr/bin/time -v java $HEAP -jar $JAR analyze "$LOG" --decode-threads "$t" >/dev/null 2>"$WORK/analyze.err" \
      || { tail "$WORK/analyze.err"; exit 1; }
    echo "$(wall "$WORK/analyze.err") $(cpu "$WORK/analyze.err") $(rss "$WORK/analyze.err")" >>"$WORK/analyze-$t.txt"
    echo "round $r, analyze, $t thread(s): wall $(wall "$WORK/analyze.err") s, CPU $(cpu "$WORK/analyze.err") s, peak RSS $(rss "$WORK/analyze.err") MB"
  done
  /usr/bin/time -v java $HEAP -jar $JAR import "$LOG" --decode-threads 2 --db "$(url decode_import)" --user postgres \
    2>"$WORK/import.err" || { tail "$WORK/import.err"; exit 1; }
  echo "$(wall "$WORK/import.err")" >>"$WORK/import-2.txt"
  echo "scale=3; $(wall "$WORK/import.err") / $(wall "$WORK/analyze.err")" | bc >>"$WORK/ratio.txt"
  echo "round $r, import, 2 threads: wall $(wall "$WORK/import.err") s, CPU $(cpu "$WORK/import.err") s, peak RSS $(rss "$WORK/import.err") MB; import / analyze(2) of the round $(tail -1 "$WORK/ratio.txt")"
done
A1=$(cut -d' ' -f1 "$WORK/analyze-1.txt" | median); A2=$(cut -d' ' -f1 "$WORK/analyze-2.txt" | median)
I2=$(median <"$WORK/import-2.txt")
own_psql -d decode_import -qtAc "SELECT 'stored: ' || num_tasks || ' tasks, ' || (SELECT count(*) FROM task) || ' task rows, status ' || status FROM application"

echo "## ratios on medians"
echo "floor ${FLOOR} s; analyze 1 thread ${A1} s, 2 threads ${A2} s; import (2 threads) ${I2} s"
ratio() { echo "scale=2; $1 / $2" | bc; }
echo "analyze(2) / floor = $(ratio "$A2" "$FLOOR") (target ≤ 0.70)"
echo "analyze(1) / floor = $(ratio "$A1" "$FLOOR")"
echo "analyze(1) / analyze(2) = $(ratio "$A1" "$A2") (the scaling from 1 to 2 threads)"
echo "import / analyze(2) = $(ratio "$I2" "$A2") on medians, $(median <"$WORK/ratio.txt") as the median of the rounds' own ratios (target ≤ 1.30)"
echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
