#!/usr/bin/env bash
# Per-job overhead of the listener on a long-running driver (docs/benchmarks/long-running-drivers.md): one local[2]
# application runs JOBS one-task SQL jobs back to back, with no listener, with Spark's event log, and with Sparkscope
# writing into a real PostgreSQL (Debian's PostgreSQL 15 on 127.0.0.1:5432), the variants alternated round by round
# in one JVM; then one long run of HEAP_JOBS jobs with Sparkscope, heap after a full GC every HEAP_JOBS/10 jobs.
# Each run also prints CPU per job (the JVM's, Sparkscope's threads', each listener queue's and the PostgreSQL backends'
# of $DB, read from /proc): unlike wall time it hardly depends on what else runs on the machine, so it is the figure
# to compare between code versions; the overhead part ends with a median CPU table. Beside the thread groups it
# prints the JVM's native threads (GC workers and concurrent marking, JIT compilers, VM thread; from /proc/self/task)
# and the bytes each Java thread group allocated per job, so that the JVM's own work for a variant can be told apart.
# WARMUP rounds (rounds 0, -1, ...) of every variant at the full job count come first, printed but not counted (class
# loading, JIT, Spark's codegen cache and the schema migration happen there, not in the first counted round); the JIT
# keeps compiling for tens of thousands of jobs, so the comparison with the event log wants 3 or more. The overhead
# part ends with Sparkscope over the event log paired round by round: median, mean and its 95 % interval.
#
#   bench/many-jobs.sh [JOBS=2000] [ROUNDS=3] [HEAP_JOBS=20000] [WARMUP=1]
#
# Needs: Debian postgresql (pg_ctlcluster); started here if it is down. BENCH_SKIP_BUILD=1 reuses the last build.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${1:-2000}
ROUNDS=${2:-3}
HEAP_JOBS=${3:-20000}
WARMUP=${4:-1}
DB=sparkscope_manyjobs
PW=bench
URL="jdbc:postgresql://127.0.0.1:5432/$DB"

source bench/debian-db.sh
opens="$(sed -n 's:.*<spark.jvm.opens>\(.*\)</spark.jvm.opens>.*:\1:p' pom.xml)"
export SPARK_LOCAL_IP=127.0.0.1
mkdir -p target
JAVA=(java -Xmx2g ${JAVA_OPTS:-} $opens -Dlog4j2.configurationFile=listener/src/test/resources/log4j2.properties -cp "$cp")

echo "# $(date -u +%FT%TZ), $(nproc) vCPU, $(free -g | awk '/Mem:/{print $2}') GB, $(java -version 2>&1 | head -1)"
echo "# PostgreSQL: $(su postgres -c "psql -qtAc 'SHOW server_version'")"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== overhead: $JOBS jobs x $ROUNDS rounds after $WARMUP warm-up rounds"
"${JAVA[@]}" -Dbench.warmupRounds="$WARMUP" io.sparkscope.bench.ManyJobsBench overhead "$JOBS" "$ROUNDS" "$URL" postgres "$PW" 2> target/many-jobs-overhead.log
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$HEAP_JOBS" -gt 0 ]; then
  for v in none sparkscope; do
    echo "== heap: $HEAP_JOBS jobs, $v"
    "${JAVA[@]}" io.sparkscope.bench.ManyJobsBench heap "$HEAP_JOBS" "$v" "$URL" postgres "$PW" 2> "target/many-jobs-heap-$v.log"
  done
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
echo "# rows stored: $(PGPASSWORD=$PW psql -h 127.0.0.1 -U postgres -d $DB -qtAc \
  "SELECT string_agg(name || ' ' || num_jobs || ' jobs', ', ') FROM application")"
