#!/usr/bin/env bash
# A database that has lived for years: rows and bytes per application, and search / application page times at
# 100 000 applications, in a PostgreSQL of the bench's own (bench/own-postgres.sh; not a shared one on 5432).
#   bench/db-scale.sh [apps=100000] [base=2000] [rounds=20]
# Loads `base` applications with SyntheticLoad (as bench/web-latency.sh: 2 jobs × 2 stages × 25 kept tasks, 39
# settings, real findings, one of 200 names, one of 20 users), copies them inside PostgreSQL up to `apps`
# (bench/clone-apps.sql: one start every 5 minutes, 347 days for 100 000), then `sparkscope serve` and one client
# asking each page `rounds` times after 5 warm-up requests (single requests: what one user waits, not throughput;
# bench/web-latency.sh measures that). Loads once; reruns reuse the data. Prune --dry-run is timed at the end, and
# with PRUNE_AGE=300d a real prune of what is older (task rows, then whole applications; the data is then changed).
set -euo pipefail
cd "$(dirname "$0")/.."
APPS=${1:-100000}; BASE=${2:-2000}; ROUNDS=${3:-20}; PORT=${PORT:-7175}
source bench/own-postgres.sh
DB=${SCALE_DB:-scale}
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
  echo "copying them up to $APPS applications…" >&2
  t0=$(date +%s)
  own_psql -d "$DB" -q -v base="$BASE" -v copies=$(( APPS / BASE - 1 )) -f bench/clone-apps.sql 2>&1 | grep -v '^$' >&2
  q "VACUUM ANALYZE" >/dev/null
  echo "copies and VACUUM ANALYZE: $(( $(date +%s) - t0 )) s" >&2
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
[ -z "${LOAD_ONLY:-}" ] || exit 0

java -Xmx1g -jar server/target/sparkscope.jar serve --db "$URL" --user postgres --port "$PORT" \
  2>/tmp/db-scale-serve.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
mid=$(printf 'app-%08d' $(( n / 2 )))
old=$(printf 'app-%08d' $(( n - 1 )))
echo "## one client, $ROUNDS requests each after 5 warm-up: median / p95 / max ms, bytes"
for path in "/apps" "/apps?page=1000" "/apps?name=job-17" "/apps?user=user3&severity=high" \
    "/apps?heuristic=DiskSpill" "/apps?sort=duration&order=desc" "/apps/$mid" "/apps/$old" \
    "/api/v1/apps/$mid/stages" "/history?name=job-17" "/history" "/"; do
  for _ in 1 2 3 4 5; do curl -s -o /dev/null "http://127.0.0.1:$PORT$path"; done
  times=$(for _ in $(seq 1 "$ROUNDS"); do
    curl -s -o /dev/null -w '%{time_total} %{size_download} %{http_code}\n' "http://127.0.0.1:$PORT$path"; done)
  code=$(echo "$times" | awk '{print $3}' | sort -u | tr '\n' ' ')
  echo "$times" | awk '{print $1 * 1000, $2}' | sort -n | awk -v p="$path" -v c="$code" -v r="$ROUNDS" '
    { t[NR] = $1; b = $2 } END { printf "%-34s %7.1f %7.1f %7.1f  %8d B  HTTP %s\n", p, t[int((r + 1) / 2)],
      t[int(r * 0.95 + 0.999)], t[r], b, c }'
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
