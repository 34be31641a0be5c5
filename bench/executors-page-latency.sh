#!/usr/bin/env bash
# Executors-page latency bench: one application that added and removed 100 000 executors (synthetic,
# ManyExecutorsLoad, one bulk write) in a Debian PostgreSQL, `sparkscope serve`, then wrk with 16 connections on
# loopback against random pages of its executors tab (all, live only) and of /api/v1/…/allexecutors; prints p50/p95/p99
# and CPU per request as bench/task-table-latency.sh does.   bench/executors-page-latency.sh [executors=100000] [seconds=20]
# Needs: Debian postgresql (pg_ctlcluster), wrk. Loads once; reruns reuse the data.
set -euo pipefail
cd "$(dirname "$0")/.."
EXECUTORS=${1:-100000}; SECS=${2:-20}
DB=${BENCH_DB:-sparkscope_executorbench}; PW=bench; PORT=${PORT:-7173}
URL="jdbc:postgresql://127.0.0.1:5432/$DB"
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 2; }
pg_lsclusters | grep -q ' online' || pg_ctlcluster 15 main start
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$PW'\"" >/dev/null
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = '$DB'\"" | grep -q 1 || su postgres -c "createdb $DB"
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/executor-bench-cp.txt -Dmdep.includeScope=test
[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/executor-bench-cp.txt)"
have=$(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc "SELECT count(*) FROM executor" 2>/dev/null || echo 0)
if [ "${have:-0}" -lt "$EXECUTORS" ]; then
  echo "loading one application of $EXECUTORS executors…" >&2
  java -cp "$CP" io.sparkscope.server.web.ManyExecutorsLoad "$URL" postgres $PW "$EXECUTORS"
  PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qc "VACUUM ANALYZE"
fi
SPARKSCOPE_DB_PASSWORD=$PW java -Xmx1g -jar server/target/sparkscope.jar serve --db "$URL" --user postgres --port "$PORT" \
  --pool-size 16 ${SERVE_ARGS:-} 2>/tmp/executor-bench-serve.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
T=/apps/app-many-executors/executors; A=/api/v1/apps/app-many-executors/allexecutors
for i in $(seq 1 200); do echo "$T?offset=$(( (RANDOM * 32768 + RANDOM) % (EXECUTORS - 100) ))"; done > /tmp/urls-executors-all.txt
for i in $(seq 1 100); do echo "$T?state=active&offset=$(( (RANDOM * 32768 + RANDOM) % (EXECUTORS / 10 - 100) ))"; done \
  > /tmp/urls-executors-active.txt
for i in $(seq 1 100); do echo "$A?offset=$(( (RANDOM * 32768 + RANDOM) % (EXECUTORS - 100) ))&length=100"; done \
  > /tmp/urls-executors-api.txt
echo "# $(date -u +%FT%TZ) $(nproc) vCPU, load $(cut -d' ' -f1-3 /proc/loadavg), $EXECUTORS executors, wrk -t4 -c16 -d${SECS}s"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_ticks() { local t=0; for p in $(pgrep -x postgres); do t=$((t + $(ticks "$p"))); done; echo "$t"; }
for kind in ${KINDS:-all active api}; do
  URLS_FILE=/tmp/urls-executors-$kind.txt wrk -t4 -c16 -d${WARMUP:-10}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" >/dev/null
  printf '%-7s ' "$kind"
  j0=$(ticks $SERVER); p0=$(pg_ticks)
  out=$(URLS_FILE=/tmp/urls-executors-$kind.txt wrk -t4 -c16 -d${SECS}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  j1=$(ticks $SERVER); p1=$(pg_ticks)
  n=$(echo "$out" | sed 's/.*requests=\([0-9]*\).*/\1/')
  echo "$out server_cpu_ms_per_req=$(echo "scale=2; ($j1 - $j0) * 10 / $n" | bc) pg_cpu_ms_per_req=$(echo "scale=2; ($p1 - $p0) * 10 / $n" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
done
