#!/usr/bin/env bash
# SQL page latency bench: one application whose SQL execution has a plan of about 1 000 graph nodes (synthetic:
# joins of scans in codegen clusters with exchanges, a metric aggregate for every metric; SqlPlanLoad) in a Debian
# PostgreSQL, `sparkscope serve`, then wrk with 16 connections on loopback against the execution's page (the plan
# laid out by ELK once, then kept), the SQL tab and the Spark-shaped …/sql/0?details=true.
#   bench/sql-page-latency.sh [operators=1000] [seconds=20]
# Needs: Debian postgresql (pg_ctlcluster), wrk. Loads once per size; reruns reuse the data.
set -euo pipefail
cd "$(dirname "$0")/.."
OPERATORS=${1:-1000}; SECS=${2:-20}
DB=${BENCH_DB:-sparkscope_sqlbench_$OPERATORS}; PW=bench; PORT=${PORT:-7173}
URL="jdbc:postgresql://127.0.0.1:5432/$DB"
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 2; }
pg_lsclusters | grep -q ' online' || pg_ctlcluster 15 main start
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$PW'\"" >/dev/null
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = '$DB'\"" | grep -q 1 || su postgres -c "createdb $DB"
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/sql-bench-cp.txt -Dmdep.includeScope=test
[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/sql-bench-cp.txt)"
have=$(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc "SELECT count(*) FROM sql_plan_node" 2>/dev/null || echo 0)
if [ "${have:-0}" -lt 1 ]; then
  echo "loading one SQL execution of about $OPERATORS plan nodes…" >&2
  java -cp "$CP" io.sparkscope.server.web.SqlPlanLoad "$URL" postgres $PW "$OPERATORS"
  PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qc "VACUUM ANALYZE"
fi
nodes=$(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc "SELECT count(*) FROM sql_plan_node")
SPARKSCOPE_DB_PASSWORD=$PW java -Xmx1g -jar server/target/sparkscope.jar serve --db "$URL" --user postgres --port "$PORT" \
  --pool-size 16 ${SERVE_ARGS:-} 2>/tmp/sql-bench-serve.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
echo /apps/app-big-plan/sql/0 > /tmp/urls-sql-page.txt
echo /apps/app-big-plan/sql > /tmp/urls-sql-list.txt
echo "/api/v1/apps/app-big-plan/sql/0?details=true" > /tmp/urls-sql-api.txt
# the first page lays the plan out; its time is the cold figure
cold=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$PORT/apps/app-big-plan/sql/0")
echo "# $(date -u +%FT%TZ) $(nproc) vCPU, load $(cut -d' ' -f1-3 /proc/loadavg), $nodes plan nodes, cold page ${cold}s, wrk -t4 -c16 -d${SECS}s"
# CPU ticks (1/100 s) used so far by one pid / by all PostgreSQL processes, as bench/web-latency.sh counts them: CPU
# per request hardly depends on how busy the rest of the machine is, unlike the latencies.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_ticks() { local t=0; for p in $(pgrep -x postgres); do t=$((t + $(ticks "$p"))); done; echo "$t"; }
for kind in ${KINDS:-page list api}; do
  URLS_FILE=/tmp/urls-sql-$kind.txt wrk -t4 -c16 -d${WARMUP:-5}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" >/dev/null
  printf '%-5s ' "$kind"
  j0=$(ticks $SERVER); p0=$(pg_ticks)
  out=$(URLS_FILE=/tmp/urls-sql-$kind.txt wrk -t4 -c16 -d${SECS}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  j1=$(ticks $SERVER); p1=$(pg_ticks)
  n=$(echo "$out" | sed 's/.*requests=\([0-9]*\).*/\1/')
  echo "$out server_cpu_ms_per_req=$(echo "scale=2; ($j1 - $j0) * 10 / $n" | bc) pg_cpu_ms_per_req=$(echo "scale=2; ($p1 - $p0) * 10 / $n" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
done
