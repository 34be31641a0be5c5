#!/usr/bin/env bash
# A huge log through the whole path, under -Xmx512m, into a PostgreSQL of the bench's own (bench/own-postgres.sh):
#  1. `analyze` and `import` of one 1 000 000-task log (SyntheticLog: 100 stages × 10 000 tasks, 1.6 GB of JSON,
#     written once into $HUGE_LOG_DIR): wall time, peak RSS (/usr/bin/time -v), import/analyze ratio;
#  2. `watch --interval 1s` while the same log is written into its directory GROW_LINES (200 000) lines at a time with a 1 s
#     pause (a running driver), then renamed without ".inprogress" (its end): the watcher's RSS every 2 s, and the
#     time from the rename (the last write) to the application's row showing COMPLETE;
#  3. CPU per idle scan of a directory of 10 000 small logs, all already stored (watch --interval 1s for 60 s):
#     the watcher's and PostgreSQL's CPU divided by the scans made.
#   bench/huge-log.sh [stages=100] [tasksPerStage=10000] [smallLogs=10000]
# Needs Debian's postgresql binaries (not its server on 5432) and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
STAGES=${1:-100}; TASKS=${2:-10000}; SMALL=${3:-10000}
WORK=${HUGE_LOG_DIR:-/tmp/sparkscope-huge-log}
HEAP=${HEAP:--Xmx512m}
GROW_LINES=${GROW_LINES:-200000}   # lines per second-apart chunk in step 2 (lower: a driver's pace)
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 2; }
source bench/own-postgres.sh
fresh_db() { own_psql -d postgres -qc "DROP DATABASE IF EXISTS $1" && own_psql -d postgres -qc "CREATE DATABASE $1"; }
url() { echo "jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/$1"; }

[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/huge-log-cp.txt \
  -Dmdep.includeScope=test
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/huge-log-cp.txt)"
JAR=server/target/sparkscope.jar
mkdir -p "$WORK/huge"
LOG="$WORK/huge/application_1764000000000_9001"
if [ ! -f "$LOG" ]; then
  echo "writing the $((STAGES * TASKS))-task log once…" >&2
  java -cp "$CP" io.sparkscope.server.cli.HugeLogTool write "$LOG" "$STAGES" "$TASKS"
fi
# /usr/bin/time -v's wall clock (h:mm:ss or m:ss.ss) in seconds, and its peak RSS in MB
wall() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"; }
rss() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }

echo "# $(date -u +%FT%TZ) $(nproc) vCPU, $(free -m | awk '/Mem:/ {print $2}') MB RAM, $(java -version 2>&1 | head -1), $HEAP,"\
  "$(own_psql -d postgres -qtAc 'SHOW server_version'), uptime: $(uptime)"
echo "## 1. analyze vs import: $(du -h "$LOG" | cut -f1) log, $(( STAGES * TASKS )) tasks"
/usr/bin/time -v java $HEAP -jar $JAR analyze "$LOG" >/dev/null 2>"$WORK/analyze.err" || { tail "$WORK/analyze.err"; exit 1; }
fresh_db huge_import
# migrated first, as a production database is: the import's time is the import's
java -jar $JAR prune --older-than 1h --dry-run --db "$(url huge_import)" --user postgres >/dev/null 2>&1
/usr/bin/time -v java $HEAP -jar $JAR import "$LOG" --db "$(url huge_import)" --user postgres 2>"$WORK/import.err" \
  || { tail "$WORK/import.err"; exit 1; }
grep -E "^\[1/1\]|^imported" "$WORK/import.err" || true
a=$(wall "$WORK/analyze.err"); i=$(wall "$WORK/import.err")
echo "analyze: ${a} s, peak RSS $(rss "$WORK/analyze.err") MB"
echo "import:  ${i} s, peak RSS $(rss "$WORK/import.err") MB"
echo "import / analyze = $(echo "scale=2; $i / $a" | bc)"
own_psql -d huge_import -qtAc "SELECT 'stored: ' || num_tasks || ' tasks, ' || (SELECT count(*) FROM task) || ' task rows, '
  || num_stages || ' stage attempts, status ' || status FROM application"

echo "## 2. watch while the log grows ($GROW_LINES lines per second-apart chunk)"
fresh_db huge_watch
rm -rf "$WORK/grow"; mkdir -p "$WORK/grow"
java $HEAP -jar $JAR watch "$WORK/grow" --interval 1s --db "$(url huge_watch)" --user postgres 2>"$WORK/watch.err" &
WATCHER=$!
trap 'kill $WATCHER 2>/dev/null || true' EXIT
sleep 3
( while kill -0 $WATCHER 2>/dev/null; do
    echo "$(date +%s) $(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' /proc/$WATCHER/status 2>/dev/null)"; sleep 2; done ) \
  >"$WORK/watch-rss.txt" &
SAMPLER=$!
t0=$(date +%s)
last=$(java -cp "$CP" io.sparkscope.server.cli.HugeLogTool grow "$WORK/grow" application_1764000000000_9002 \
  "$STAGES" "$TASKS" "$GROW_LINES" 1000 | awk '/^last-write/ {print $2}')
echo "log written in $(( $(date +%s) - t0 )) s"
until [ "$(own_psql -d huge_watch -qtAc "SELECT status FROM application WHERE app_id = 'application_1764000000000_9002'" 2>/dev/null)" = COMPLETE ]; do
  sleep 0.1
  [ $(( $(date +%s%3N) - last )) -lt 900000 ] || { echo "not COMPLETE 15 min after the last write" >&2; tail "$WORK/watch.err"; exit 1; }
done
seen=$(date +%s%3N)
echo "last write → row COMPLETE: $(( seen - last )) ms"
sleep 3
kill $WATCHER; wait $WATCHER 2>/dev/null || true; kill $SAMPLER 2>/dev/null || true
echo "watcher RSS MB over time (s since start: MB), max $(awk '{ if ($2 > m) m = $2 } END { print m }' "$WORK/watch-rss.txt") MB:"
awk -v t0="$t0" 'NR % 5 == 1 { printf "%d:%s ", $1 - t0, $2 } END { print "" }' "$WORK/watch-rss.txt"
grep -c "^scan" "$WORK/watch.err" | sed 's/^/scans: /'
grep "^scan" "$WORK/watch.err" | tail -2
own_psql -d huge_watch -qtAc "SELECT 'stored: ' || num_tasks || ' tasks, ' || (SELECT count(*) FROM task) || ' task rows, status ' || status FROM application"

echo "## 3. idle scans of $SMALL small logs"
if [ ! -d "$WORK/many" ] || [ "$(ls "$WORK/many" | wc -l)" -lt "$SMALL" ]; then
  rm -rf "$WORK/many"; java -cp "$CP" io.sparkscope.server.cli.HugeLogTool many "$WORK/many" "$SMALL"
fi
if [ "$(own_psql -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname = 'huge_many'")" != 1 ] \
   || [ "$(own_psql -d huge_many -qtAc "SELECT count(*) FROM log_watch WHERE status = 'DONE'" 2>/dev/null || echo 0)" -lt "$SMALL" ]; then
  fresh_db huge_many
  t1=$(date +%s)
  java $HEAP -jar $JAR watch "$WORK/many" --once --db "$(url huge_many)" --user postgres 2>&1 | grep "^scan"
  echo "first scan (stores all): $(( $(date +%s) - t1 )) s"
fi
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# the backends serving the watcher's database (its pool keeps them for the whole run)
pg_ticks() { local t=0 p; for p in $(pgrep -f "^postgres: postgres huge_many "); do t=$((t + $(ticks "$p"))); done; echo $t; }
java $HEAP -jar $JAR watch "$WORK/many" --interval 1s --db "$(url huge_many)" --user postgres 2>"$WORK/many.err" &
WATCHER=$!
# past start-up and the first scans (JIT), then 60 s of idle scans
scans() { local n; n=$(grep -c '^scan' "$WORK/many.err" 2>/dev/null) || true; echo "${n:-0}"; }
until [ "$(scans)" -ge 5 ]; do sleep 0.5; done
s0=$(scans); j0=$(ticks $WATCHER); p0=$(pg_ticks)
sleep 60
s1=$(scans); j1=$(ticks $WATCHER); p1=$(pg_ticks)
echo "RSS $(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' /proc/$WATCHER/status) MB"
kill $WATCHER; wait $WATCHER 2>/dev/null || true
grep "^scan" "$WORK/many.err" | tail -1
n=$((s1 - s0))
echo "$n idle scans in 60 s: watcher CPU $(echo "scale=1; ($j1 - $j0) * 10 / $n" | bc) ms per scan, PostgreSQL CPU $(echo "scale=1; ($p1 - $p0) * 10 / $n" | bc) ms per scan"
echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
