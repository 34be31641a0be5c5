#!/usr/bin/env bash
# The listener's cost split in one run (docs/benchmarks/listener-overhead.md, "The driver's share and the database's"):
# one SQL job of TASKS tasks on local[2] with no listener, with Spark's event log and with Sparkscope writing into a
# real PostgreSQL (Debian's PostgreSQL 15 on 127.0.0.1:5432, on the same machine), variants rotated round by round in
# one JVM. Prints per run and as medians: (a) the driver's share, CPU of Sparkscope's threads and of the listener-bus
# thread its callbacks run on, against Spark's event-log queue thread; (b) the database's share, CPU of the backends
# serving the listener's connections (pg_stat_activity pids, /proc/<pid>/stat) per task row and per stage stored, and
# the rows PostgreSQL inserted, updated and deleted.
#
#   bench/listener-cost.sh [TASKS=8001] [ROUNDS=5] [WARMUP=1]
#
# Needs: Debian postgresql (pg_ctlcluster); started here if it is down. BENCH_SKIP_BUILD=1 reuses the last build.
# VARIANTS=sparkscope runs only the given variants (comma-separated; a profiling run, no comparison printed).
# LOG_STATEMENTS=1 sets log_statement=all on the bench database: every statement the listener sends lands in
# PostgreSQL's log (/var/log/postgresql/postgresql-15-main.log), to count statements per flush.
# JFR=1 also records a flight recording (target/listener-cost.jfr; `jfr print --events jdk.ExecutionSample`).
set -euo pipefail
cd "$(dirname "$0")/.."
TASKS=${1:-8001}
ROUNDS=${2:-5}
WARMUP=${3:-1}
DB=sparkscope_listenercost
PW=bench
URL="jdbc:postgresql://127.0.0.1:5432/$DB"

source bench/debian-db.sh
if [ "${LOG_STATEMENTS:-0}" = 1 ]; then
  su postgres -c "psql -qc 'ALTER DATABASE $DB SET log_statement = '\''all'\'''" >/dev/null
fi
opens="$(sed -n 's:.*<spark.jvm.opens>\(.*\)</spark.jvm.opens>.*:\1:p' pom.xml)"
export SPARK_LOCAL_IP=127.0.0.1
mkdir -p target
JFR_OPT=()
if [ "${JFR:-0}" = 1 ]; then
  JFR_OPT=(-XX:StartFlightRecording=filename=target/listener-cost.jfr,settings=profile)
fi

echo "# $(date -u +%FT%TZ), $(nproc) vCPU, $(free -g | awk '/Mem:/{print $2}') GB, $(java -version 2>&1 | head -1)"
echo "# PostgreSQL: $(su postgres -c "psql -qtAc 'SHOW server_version'")"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx2g ${JAVA_OPTS:-} "${JFR_OPT[@]}" $opens -Dbench.warmupRounds="$WARMUP" -Dbench.variants="${VARIANTS:-}" \
    -Dlog4j2.configurationFile=listener/src/test/resources/log4j2.properties -cp "$cp" \
    io.sparkscope.bench.ListenerCostBench "$TASKS" "$ROUNDS" "$URL" postgres "$PW" 2> target/listener-cost.log
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
