#!/usr/bin/env bash
# Wide logs under a small heap: `analyze --json` (and `import`, into a PostgreSQL of the bench's own,
# bench/own-postgres.sh) of four generated logs, each long in one direction (WideLogs): 200 000 one-task jobs,
# 100 000 executors added and removed, 1 000 000 SQL metric updates of one execution, 100 000 streaming batches of
# one query. Each must finish under $HEAP (default -Xmx256m); prints wall time, peak RSS and the exit status.
# BoundedMemoryTest runs the same at a quarter of the sizes and the heap.
#   bench/bounded-memory.sh [scale=1]   (sizes × scale)
# Needs Debian's postgresql binaries (for import; SKIP_IMPORT=1 leaves it out) and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${1:-1}
HEAP=${HEAP:--Xmx256m}
WORK=${WIDE_LOG_DIR:-/tmp/sparkscope-wide-logs}
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 2; }
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/wide-log-cp.txt \
  -Dmdep.includeScope=test
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/wide-log-cp.txt)"
mkdir -p "$WORK"
if [ -z "${SKIP_IMPORT:-}" ]; then
  source bench/own-postgres.sh
  own_psql -d postgres -qc "DROP DATABASE IF EXISTS wide" && own_psql -d postgres -qc "CREATE DATABASE wide"
fi
echo "# $(date -u +%FT%TZ) $(nproc) vCPU, $(java -version 2>&1 | head -1), $HEAP, scale $SCALE"
for spec in "jobs 200000" "executors 100000" "sql-metrics 1000000" "streaming 100000"; do
  set -- $spec
  n=$(( $2 * SCALE )); log="$WORK/$1-$n"
  [ -f "$log" ] || java -cp "$CP" io.sparkscope.server.cli.WideLogs "$1" "$log" "$n"
  cmds=("analyze --json")
  [ -n "${SKIP_IMPORT:-}" ] || cmds+=("import --db jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/wide --user postgres")
  for cmd in "${cmds[@]}"; do
    set +e
    /usr/bin/time -v java $HEAP -cp "$CP" io.sparkscope.server.cli.Main ${cmd%% *} "$log" ${cmd#* } \
      >/dev/null 2>/tmp/wide-log-time.txt
    status=$?
    set -e
    printf '%-12s %9d  %-8s exit=%d  wall=%s  rss_mb=%s  %s\n' "$1" "$n" "${cmd%% *}" "$status" \
      "$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' /tmp/wide-log-time.txt)" \
      "$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' /tmp/wide-log-time.txt)" \
      "$(grep -v 'Command being timed' /tmp/wide-log-time.txt | grep -m1 'sparkscope\|Exception' || true)"
  done
done
