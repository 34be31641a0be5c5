#!/usr/bin/env bash
# Prune by whole task partitions against prune by row deletes, on the same rows, in a PostgreSQL of the bench's own
# (bench/own-postgres.sh; not a shared one on 5432), and bytes per task row in either layout.
#   bench/prune-partitions.sh [months=12] [apps_per_month=2000] [age=180d]
# Loads BASE (default 200) applications with SyntheticLoad (2 jobs × 2 stages × 25 kept tasks: 100 task rows each),
# copies them inside PostgreSQL (bench/clone-apps.sql, which creates the months' task partitions first) so that
# `apps_per_month` start in each of the last `months` months. Then four copies of that database:
#   partitioned  the schema as it is (task partitioned by application start month): prune drops whole months;
#   flat         the task table made one plain table again, as before partitioning: prune deletes row by row;
# each pruned once with --keep-findings (task rows only) and once whole (applications with all their rows), timed.
# Every run starts from scratch (the prunes change the data). A small check: BASE=100 bench/prune-partitions.sh 3 100 60d
set -euo pipefail
cd "$(dirname "$0")/.."
MONTHS=${1:-12}; PER_MONTH=${2:-2000}; AGE=${3:-180d}; BASE=${BASE:-200}
source bench/own-postgres.sh
SRC=prune_bench_src
q() { own_psql -d "$1" -qtAc "$2"; }
url() { echo "jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/$1"; }

[ -f server/target/sparkscope.jar ] && [ -z "${REBUILD:-}" ] || mvn -q -o -pl server -am package -DskipTests
mvn -q -o -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/prune-partitions-cp.txt \
  -Dmdep.includeScope=test
CP="server/target/test-classes:server/target/classes:store/target/classes:ingest/target/classes:heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:$(cat /tmp/prune-partitions-cp.txt)"

for db in $SRC prune_partitioned_tasks prune_partitioned_apps prune_flat_tasks prune_flat_apps; do
  own_psql -d postgres -qc "DROP DATABASE IF EXISTS $db"
done
own_psql -d postgres -qc "CREATE DATABASE $SRC"
t0=$(date +%s)
java -cp "$CP" io.sparkscope.server.web.SyntheticLoad "$(url $SRC)" postgres "" "$BASE" 25 2
APPS=$(( MONTHS * PER_MONTH ))
STEP=$(( 2629746000 / PER_MONTH ))   # a month (365.2425 / 12 days) in ms, spread over its applications
own_psql -d $SRC -q -v base="$BASE" -v copies=$(( APPS / BASE - 1 )) -v step="$STEP" -f bench/clone-apps.sql 2>&1 \
  | grep -v '^$' | tail -1 >&2
q $SRC "VACUUM ANALYZE" >/dev/null
echo "load: $(( $(date +%s) - t0 )) s" >&2

for db in prune_partitioned_tasks prune_partitioned_apps prune_flat_tasks prune_flat_apps; do
  own_psql -d postgres -qc "CREATE DATABASE $db TEMPLATE $SRC"
done
for db in prune_flat_tasks prune_flat_apps; do
  # one plain task table with the same rows and indexes, and no partition to create: the layout before V28
  own_psql -d $db -q <<'SQL'
BEGIN;
ALTER TABLE task RENAME TO task_partitioned;
CREATE TABLE task (LIKE task_partitioned INCLUDING ALL);
INSERT INTO task SELECT * FROM task_partitioned;
DROP TABLE task_partitioned;
ALTER TABLE task ADD FOREIGN KEY (app_pk, stage_id, stage_attempt_id)
    REFERENCES stage_attempt (app_pk, stage_id, attempt_id) ON DELETE CASCADE;
CREATE OR REPLACE FUNCTION sparkscope_task_partition(m bigint) RETURNS text LANGUAGE sql AS $$ SELECT 'task'::text $$;
COMMIT;
VACUUM ANALYZE task;
SQL
done

echo "# $(date -u +%FT%TZ) $(nproc) vCPU, load $(cut -d' ' -f1-3 /proc/loadavg), $(q $SRC 'SHOW server_version')"
echo "# $(q $SRC 'SELECT count(*) FROM application') applications over $MONTHS months, $(q $SRC 'SELECT count(*) FROM task') task rows; prune --older-than $AGE"
echo "## bytes per task row (pg_total_relation_size: table, TOAST and indexes, over every partition)"
for db in prune_partitioned_tasks prune_flat_tasks; do
  q $db "SELECT '$db', sum(pg_total_relation_size(c.oid)), round(sum(pg_total_relation_size(c.oid))
           / (SELECT count(*) FROM task)::numeric) || ' B/row', count(*) || ' table(s)'
           FROM pg_class c WHERE c.relkind = 'r' AND (c.relname = 'task' OR c.oid IN (SELECT inhrelid FROM pg_inherits
           WHERE inhparent = to_regclass('task')))"
done
echo "## prune: elapsed, peak RSS, then its summary lines"
for db in prune_partitioned_tasks prune_flat_tasks prune_partitioned_apps prune_flat_apps; do
  opt=""; case $db in *_tasks) opt=--keep-findings ;; esac
  echo "### $db: prune --older-than $AGE $opt"
  /usr/bin/time -f "%e s elapsed, %M KB peak RSS" java -jar server/target/sparkscope.jar prune --older-than "$AGE" \
    $opt --db "$(url $db)" --user postgres 2>&1 | grep -v '^\[' | tail -"$(( MONTHS + 3 ))"
  echo "left: $(q $db 'SELECT count(*) FROM task') task rows, $(q $db "SELECT pg_size_pretty(pg_database_size('$db'))")"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
