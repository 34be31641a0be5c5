#!/usr/bin/env bash
# Task-table latency bench: one application whose stage keeps 100 000 tasks (synthetic, SnapshotWriter) in a Debian
# PostgreSQL, `sparkscope serve`, then wrk with 16 connections on loopback against the stage's task-table pages:
# random pages in task-id order, Spark's run-time order both ways, the duration order, a status filter, and the
# same through /api/v1/…/taskList.   bench/task-table-latency.sh [tasks=100000] [seconds=20]
# Needs: Debian postgresql (pg_ctlcluster), wrk. Loads once; reruns reuse the data.
set -euo pipefail
cd "$(dirname "$0")/.."
TASKS=${1:-100000}; SECS=${2:-20}
DB=${BENCH_DB:-sparkscope_taskbench}; PW=bench; PORT=${PORT:-7172}
URL="jdbc:postgresql://127.0.0.1:5432/$DB"
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 2; }
pg_lsclusters | grep -q ' online' || pg_ctlcluster 15 main start
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$PW'\"" >/dev/null
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = '$DB'\"" | grep -q 1 || su postgres -c "createdb $DB"
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/task-bench-cp.txt -Dmdep.includeScope=test
[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/task-bench-cp.txt)"
have=$(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc "SELECT count(*) FROM task" 2>/dev/null || echo 0)
if [ "${have:-0}" -lt "$TASKS" ]; then
  echo "loading one stage of $TASKS tasks…" >&2
  java -cp "$CP" io.sparkscope.server.web.TaskTableLoad "$URL" postgres $PW "$TASKS"
  PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qc "VACUUM ANALYZE"
fi
SPARKSCOPE_DB_PASSWORD=$PW java -Xmx1g -jar server/target/sparkscope.jar serve --db "$URL" --user postgres --port "$PORT" \
  --pool-size 16 ${SERVE_ARGS:-} 2>/tmp/task-bench-serve.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
T=/apps/app-big-stage/stages/0/0/tasks; A=/api/v1/apps/app-big-stage/stages/0/0/taskList
for i in $(seq 1 200); do echo "$T?offset=$(( (RANDOM * 32768 + RANDOM) % (TASKS - 100) ))"; done > /tmp/urls-tasks-id.txt
for i in $(seq 1 50); do o=$(( (RANDOM % 50) * 100 ))
  echo "$T?sort=run_time&order=desc&offset=$o"; echo "$T?sort=run_time&order=asc&offset=$o"; done > /tmp/urls-tasks-runtime.txt
for i in $(seq 1 50); do echo "$T?sort=duration&order=desc&offset=$(( (RANDOM % 50) * 100 ))"; done > /tmp/urls-tasks-duration.txt
{ echo "$T?status=success"; echo "$T?status=success&offset=1000"; echo "$T?status=failed"; } > /tmp/urls-tasks-status.txt
for i in $(seq 1 100); do echo "$A?offset=$(( RANDOM % (TASKS - 20) ))&sortBy=-runtime"; done > /tmp/urls-tasks-api.txt
echo "# $(date -u +%FT%TZ) $(nproc) vCPU, load $(cut -d' ' -f1-3 /proc/loadavg), $TASKS tasks in one stage, wrk -t4 -c16 -d${SECS}s"
# CPU ticks (1/100 s) used so far by one pid / by all PostgreSQL processes, as bench/web-latency.sh counts them: CPU
# per request hardly depends on how busy the rest of the machine is, unlike the latencies.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_ticks() { local t=0; for p in $(pgrep -x postgres); do t=$((t + $(ticks "$p"))); done; echo "$t"; }
for kind in ${KINDS:-id runtime duration status api}; do
  URLS_FILE=/tmp/urls-tasks-$kind.txt wrk -t4 -c16 -d${WARMUP:-10}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" >/dev/null
  printf '%-9s ' "$kind"
  j0=$(ticks $SERVER); p0=$(pg_ticks)
  out=$(URLS_FILE=/tmp/urls-tasks-$kind.txt wrk -t4 -c16 -d${SECS}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  j1=$(ticks $SERVER); p1=$(pg_ticks)
  n=$(echo "$out" | sed 's/.*requests=\([0-9]*\).*/\1/')
  echo "$out server_cpu_ms_per_req=$(echo "scale=2; ($j1 - $j0) * 10 / $n" | bc) pg_cpu_ms_per_req=$(echo "scale=2; ($p1 - $p0) * 10 / $n" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
done
