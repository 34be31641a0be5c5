#!/usr/bin/env bash
# Web latency bench: 10 000 applications / 1 000 000 task rows in a Debian PostgreSQL, `sparkscope serve`,
# then wrk with 16 concurrent connections on loopback against search, application and compare pages.
#   bench/web-latency.sh [apps=10000] [tasksPerStage=25] [seconds=20]
#   KINDS="stage app-timeline stage-timeline" bench/web-latency.sh   (other pages; default: search app compare api-stages)
# Needs: Debian postgresql (pg_ctlcluster), wrk (apt-get install -y wrk). Loads once; reruns reuse the data.
set -euo pipefail
cd "$(dirname "$0")/.."
APPS=${1:-10000}; TASKS=${2:-25}; SECS=${3:-20}
DB=${BENCH_DB:-sparkscope_bench}; PW=bench; PORT=${PORT:-7171}
URL="jdbc:postgresql://127.0.0.1:5432/$DB"
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 2; }

pg_lsclusters | grep -q ' online' || pg_ctlcluster 15 main start
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$PW'\"" >/dev/null
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = '$DB'\"" | grep -q 1 \
  || su postgres -c "createdb $DB"

mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/web-bench-cp.txt -Dmdep.includeScope=test
[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/web-bench-cp.txt)"
have=$(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc "SELECT count(*) FROM application" 2>/dev/null || echo 0)
if [ "${have:-0}" -lt "$APPS" ]; then
  echo "loading $APPS applications ($TASKS tasks per stage, 4 stages each)…" >&2
  java -cp "$CP" io.sparkscope.server.web.SyntheticLoad "$URL" postgres $PW "$APPS" "$TASKS" 4
  PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qc "VACUUM ANALYZE"
fi
PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc \
  "SELECT 'rows: ' || (SELECT count(*) FROM application) || ' applications, ' || (SELECT count(*) FROM task) || ' tasks, '
          || (SELECT count(*) FROM stage_statistics) || ' stage statistics, ' || (SELECT count(*) FROM finding) || ' findings'"

SPARKSCOPE_DB_PASSWORD=$PW java -Xmx1g -jar server/target/sparkscope.jar serve --db "$URL" --user postgres --port "$PORT" \
  --pool-size 16 ${SERVE_ARGS:-} 2>/tmp/web-bench-serve.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done

# URL sets: varied filters (search), random applications (detail), random pairs/triples of one name (compare).
ids=$(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc "SELECT app_id FROM application ORDER BY random() LIMIT 400")
{ echo "/apps"; echo "/apps?page=7"; echo "/apps?name=job-1"; echo "/apps?user=user3"; echo "/apps?severity=high";
  echo "/apps?heuristic=DiskSpill"; echo "/apps?since=1w"; echo "/apps?sort=duration&order=desc";
  echo "/apps?status=complete&severity=low&page=3"; echo "/apps?name=job-17&sort=duration";
  echo "/apps?heuristic=StageFailure&user=user0"; echo "/apps?startedFrom=2020-01-01&page=20"; } > /tmp/urls-search.txt
echo "$ids" | sed 's|^|/apps/|' > /tmp/urls-app.txt
echo "$ids" | head -n 399 | paste -d, - - - | sed 's|^|/compare?apps=|' > /tmp/urls-compare.txt
echo "$ids" | sed 's|^|/api/v1/apps/|; s|$|/stages|' > /tmp/urls-api-stages.txt
# the stage page and the application timeline (KINDS="stage app-timeline"): every loaded application has 4 stages
echo "$ids" | awk '{print "/apps/" $0 "/stages/" NR % 4 "/0"}' > /tmp/urls-stage.txt
echo "$ids" | sed 's|^|/apps/|; s|$|/timeline|' > /tmp/urls-app-timeline.txt
# a stage's task timeline (KINDS="stage-timeline"): lanes are its executors' task slots
echo "$ids" | awk '{print "/apps/" $0 "/stages/" NR % 4 "/0/timeline"}' > /tmp/urls-stage-timeline.txt

echo "# $(date -u +%FT%TZ) $(nproc) vCPU, $(uname -r), $(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc 'SHOW server_version'), wrk -t4 -c16 -d${SECS}s"
# CPU ticks (1/100 s) used so far by one pid / by all PostgreSQL processes: CPU per request does not depend on how
# busy the rest of the machine is, unlike the latencies, so it is the figure to compare between code versions.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_ticks() { local t=0; for p in $(pgrep -x postgres); do t=$((t + $(ticks "$p"))); done; echo "$t"; }
for kind in ${KINDS:-search app compare api-stages}; do
  # warm-up: long enough for the JIT to finish compiling this page's code (C2 threads took ~40 % of the CPU in the
  # first 20 s of a fresh server); the figures are meant to describe a server that has been up for a while
  URLS_FILE=/tmp/urls-$kind.txt wrk -t4 -c16 -d${WARMUP:-15}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" >/dev/null
  printf '%-11s ' "$kind"
  j0=$(ticks $SERVER); p0=$(pg_ticks)
  out=$(URLS_FILE=/tmp/urls-$kind.txt wrk -t4 -c16 -d${SECS}s -s bench/web-latency.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  j1=$(ticks $SERVER); p1=$(pg_ticks)
  n=$(echo "$out" | sed 's/.*requests=\([0-9]*\).*/\1/')
  echo "$out server_cpu_ms_per_req=$(echo "scale=2; ($j1 - $j0) * 10 / $n" | bc) pg_cpu_ms_per_req=$(echo "scale=2; ($p1 - $p0) * 10 / $n" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
done
