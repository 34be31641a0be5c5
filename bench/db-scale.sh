#!/usr/bin/env bash
# A fleet's database: a million applications, rows and bytes per application, and the pages with 16 clients, in a
# PostgreSQL of the bench's own (bench/own-postgres.sh; not a shared one on 5432).
#   bench/db-scale.sh [apps=1000000] [base=2000] [seconds=20] [clients=16]
# Loads `base` applications with SyntheticLoad (as bench/web-latency.sh: 2 jobs × 2 stages × 25 kept tasks, 39
# settings, real findings, one of 200 names, one of 20 users), then grows them inside PostgreSQL to `apps`
# (bench/generate-apps.sql: one start every SPACING_MS=8640 ms, 10 000 a day, so a million spans 100 days; details
# — tasks, stage statistics, stage attempts, SQL, settings — only for the newest DETAIL_APPS=20000, as a fleet with
# retention keeps them), VACUUM ANALYZE, then `sparkscope serve --pool-size 16` and wrk with `clients` connections
# on each page for `seconds` (after a warm-up of WARMUP=10 s): p50/p95/p99 per page. Loads once; reruns reuse the
# data (database SCALE_DB, default scale_<apps>). Prune --dry-run is timed at the end, and with PRUNE_AGE=60d a real
# prune of what is older (task rows, then whole applications; the data is then changed). LOAD_ONLY=1 stops after
# the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
APPS=${1:-1000000}; BASE=${2:-2000}; SECS=${3:-20}; CLIENTS=${4:-16}; PORT=${PORT:-7175}
DETAIL_APPS=${DETAIL_APPS:-20000}; SPACING_MS=${SPACING_MS:-8640}
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 2; }
source bench/own-postgres.sh
DB=${SCALE_DB:-scale_$APPS}
own_psql -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1 \
  || own_psql -d postgres -qc "CREATE DATABASE $DB"
URL="jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/$DB"
q() { own_psql -d "$DB" -qtAc "$1"; }

[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/db-scale-cp.txt \
  -Dmdep.includeScope=test
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/db-scale-cp.txt)"
have=$(q "SELECT count(*) FROM application" 2>/dev/null || echo 0)
if [ "${have:-0}" -lt "$APPS" ]; then
  if [ "${have:-0}" -lt "$BASE" ]; then
    echo "loading $BASE applications with SyntheticLoad…" >&2
    t0=$(date +%s)
    java -cp "$CP" io.sparkscope.server.web.SyntheticLoad "$URL" postgres "" "$BASE" 25 2
    echo "SyntheticLoad: $(( $(date +%s) - t0 )) s" >&2
  fi
  echo "growing them to $APPS applications (details for the newest $DETAIL_APPS)…" >&2
  t0=$(date +%s)
  own_psql -d "$DB" -q -v base="$BASE" -v apps="$APPS" -v detail_apps="$DETAIL_APPS" -v spacing_ms="$SPACING_MS" \
    -v batch="${BATCH:-50000}" -f bench/generate-apps.sql 2>&1 | grep -v '^$' >&2
  echo "generation: $(( $(date +%s) - t0 )) s" >&2
  t0=$(date +%s)
  q "VACUUM ANALYZE" >/dev/null
  echo "VACUUM ANALYZE: $(( $(date +%s) - t0 )) s" >&2
fi

n=$(q "SELECT count(*) FROM application")
echo "# $(date -u +%FT%TZ) $(nproc) vCPU, load $(cut -d' ' -f1-3 /proc/loadavg), $(q 'SHOW server_version'), $n applications"
echo "## rows and bytes (pg_total_relation_size: table, TOAST and indexes)"
own_psql -d "$DB" -c "
SELECT c.relname AS table, c.reltuples::bigint AS rows, round(c.reltuples::numeric / $n, 1) AS rows_per_app,
       pg_size_pretty(pg_total_relation_size(c.oid)) AS total,
       round(pg_total_relation_size(c.oid)::numeric / $n) AS bytes_per_app,
       round(pg_total_relation_size(c.oid) / greatest(c.reltuples, 1)::numeric) AS bytes_per_row
  FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND c.reltuples > 0
 ORDER BY pg_total_relation_size(c.oid) DESC"
echo "database: $(q "SELECT pg_size_pretty(pg_database_size(current_database()))")"
# Bytes per application: the rows every application keeps over all applications, plus the detail tables over the
# applications that have details (those with stage attempts).
q "WITH d AS (SELECT count(DISTINCT app_pk) AS n FROM stage_attempt),
        s AS (SELECT sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname IN ('configuration', 'stage_attempt',
                     'stage_statistics', 'task', 'sql_execution')) AS detail,
                     sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname NOT IN ('configuration',
                     'stage_attempt', 'stage_statistics', 'task', 'sql_execution')) AS kept
                FROM pg_class c WHERE c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace)
   SELECT format('bytes per application: %s without details (all %s), %s with details (%s applications have them)',
                 round(s.kept / $n), $n, round(s.kept / $n + s.detail / greatest(d.n, 1)), d.n) FROM s, d"
[ -z "${LOAD_ONLY:-}" ] || exit 0

java -Xmx1g -jar server/target/sparkscope.jar serve --db "$URL" --user postgres --port "$PORT" --pool-size 16 \
  2>/tmp/db-scale-serve.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
mid=$(printf 'app-%08d' $(( n / 2 )))
new=$(printf 'app-%08d' $(( BASE / 2 )))
# page 1 000 of the newest-first search (rows 49 951 … 50 000; the last full page of a smaller database) by the
# cursor its "next" link carries, beside the same page by number (OFFSET)
page=$(( n / 50 - 1 < 1000 ? n / 50 - 1 : 1000 ))
deep=$(q "SELECT start_time || ',' || app_pk FROM application ORDER BY start_time DESC, app_pk DESC
          OFFSET $(( (page - 1) * 50 - 1 )) LIMIT 1")
echo "# wrk -t2 -c$CLIENTS -d${SECS}s per page after ${WARMUP:-10} s warm-up; ms"
for path in "/" "/history" "/history?name=job-17" "/apps" "/apps?page=$page&after=$deep" "/apps?page=$page" \
    "/apps?name=job-17" "/apps?user=user3&severity=high" "/apps?heuristic=DiskSpill" \
    "/apps?sort=duration&order=desc" "/apps/$new" "/apps/$mid"; do
  echo "$path" > /tmp/db-scale-url.txt
  URLS_FILE=/tmp/db-scale-url.txt wrk -t2 -c"$CLIENTS" -d"${WARMUP:-10}"s -s bench/web-latency.lua \
    "http://127.0.0.1:$PORT" >/dev/null
  code=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' "http://127.0.0.1:$PORT$path")
  out=$(URLS_FILE=/tmp/db-scale-url.txt wrk -t2 -c"$CLIENTS" -d"$SECS"s -s bench/web-latency.lua \
    "http://127.0.0.1:$PORT" | grep '^RESULT')
  printf '%-48s %s http=%s bytes=%s\n' "$path" "${out#RESULT }" ${code}
done
kill $SERVER 2>/dev/null || true
echo "## prune --older-than 90d --dry-run (counts only)"
/usr/bin/time -f "%e s elapsed, %M KB peak RSS" java -jar server/target/sparkscope.jar prune --older-than 90d --dry-run \
  --db "$URL" --user postgres 2>&1 | tail -2
if [ -n "${PRUNE_AGE:-}" ]; then
  # changes the data: a rerun then loads again
  for opt in --keep-findings ""; do
    echo "## prune --older-than $PRUNE_AGE $opt"
    /usr/bin/time -f "%e s elapsed, %M KB peak RSS" java -jar server/target/sparkscope.jar prune --older-than "$PRUNE_AGE" \
      $opt --db "$URL" --user postgres 2>&1 | tail -2
  done
fi
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
