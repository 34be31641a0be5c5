#!/usr/bin/env bash
# Many drivers and a watcher writing into one PostgreSQL at once (docs/benchmarks/many-writers.md): for each writer
# count, a fresh database, then ManyWritersBench: N simulated drivers (the listener's own recording path, a pool of two
# connections each, the default flush interval) fed growing applications, and `sparkscope watch` (its own JVM)
# importing WATCHED growing event logs at the same time, for SECONDS; one line per count: write latency p50/p95/p99,
# snapshots and rows per second, PostgreSQL's CPU (% of one core), errors, deadlocks, lost snapshots.
#
#   bench/many-writers.sh [writer counts="10 25 50 100 200"]
#
# A quick check that it runs (not a measurement): SECONDS_PER_STEP=20 bench/many-writers.sh 10
# Environment: SECONDS_PER_STEP (120), TASKS per stage (40), STAGE_EVERY_MS per driver (2000), WATCHED logs (4),
# WATCH_INTERVAL (10s, the CLI's default), HEAP of the bench JVM (-Xmx3g), REBUILD=1 to rebuild.
# PostgreSQL: Debian's binaries on a data directory and port of this bench's own (OWN_PG_DIR, default
# /tmp/sparkscope-writers-pg; OWN_PG_PORT, default 5498), durable as a production server is (fsync and synchronous
# commit on, unlike the other benches' own server) and with max_connections = 1000, since every driver holds up to
# two connections: the ceiling sought here is the server's work, not its connection limit.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTS=${1:-"10 25 50 100 200"}
SECS=${SECONDS_PER_STEP:-120}
TASKS=${TASKS:-40}
STAGE_EVERY_MS=${STAGE_EVERY_MS:-2000}
WATCHED=${WATCHED:-4}
WATCH_INTERVAL=${WATCH_INTERVAL:-10s}
HEAP=${HEAP:--Xmx3g}
export OWN_PG_DIR=${OWN_PG_DIR:-/tmp/sparkscope-writers-pg}
export OWN_PG_PORT=${OWN_PG_PORT:-5498}
source bench/own-postgres.sh
if [ "$(own_psql -d postgres -qtAc 'SHOW max_connections')" != 1000 ] \
    || [ "$(own_psql -d postgres -qtAc 'SHOW fsync')" != on ]; then
  own_psql -d postgres -qc "ALTER SYSTEM SET max_connections = 1000" -c "ALTER SYSTEM SET fsync = on" \
    -c "ALTER SYSTEM SET synchronous_commit = on" -c "ALTER SYSTEM SET full_page_writes = on"
  as_pg "$OWN_PG_BIN/pg_ctl -D $OWN_PG_DIR -l $OWN_PG_DIR/server.log -w restart" >/dev/null
fi

if [ -n "${REBUILD:-}" ] || [ ! -f bench/target/classpath.txt ] || [ ! -f server/target/sparkscope.jar ]; then
  echo "building (mvn -q -o -DskipTests -pl bench,server -am package) ..." >&2
  mvn -q -o -B -DskipTests -pl bench,server -am package >&2
fi
cp="bench/target/classes:$(cat bench/target/classpath.txt)"
WORK=$(mktemp -d /tmp/many-writers.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "# $(date -u +%FT%TZ), $(nproc) vCPU, $(java -version 2>&1 | head -1)," \
  "PostgreSQL $(own_psql -d postgres -qtAc 'SHOW server_version') (fsync on, max_connections 1000)"
echo "# per driver: one job of one stage of $TASKS tasks every $STAGE_EVERY_MS ms, the listener's default flush" \
  "interval; watch: $WATCHED growing logs at the same pace, --interval $WATCH_INTERVAL; $SECS s per step"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
header=--header
for n in $COUNTS; do
  db=sparkscope_writers_$n
  own_psql -d postgres -qc "DROP DATABASE IF EXISTS $db" && own_psql -d postgres -qc "CREATE DATABASE $db"
  mkdir -p "$WORK/$n"
  java $HEAP -cp "$cp" io.sparkscope.bench.ManyWritersBench "jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/$db" postgres "" \
    --writers "$n" --seconds "$SECS" --tasks "$TASKS" --stage-every-ms "$STAGE_EVERY_MS" --watched "$WATCHED" \
    --watch-jar server/target/sparkscope.jar --watch-interval "$WATCH_INTERVAL" --work "$WORK/$n" $header \
    2> >(grep -v -e '^SLF4J' -e ' INFO ' >&2)
  header=
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
