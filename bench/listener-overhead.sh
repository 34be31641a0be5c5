#!/usr/bin/env bash
# Listener overhead benchmark: Sparkscope's listener vs no listener vs Spark's event log, on a local[2]
# job of many tiny tasks; then Spark's listener-bus drops and the listener's retained heap at 200 000 tasks.
#
#   bench/listener-overhead.sh [tasks=20000] [rounds=7] [bigTasks=200000]
#
# Builds the core modules, store and listener (test classes included; no install), then runs
# io.sparkscope.listener.bench.ListenerOverheadBench from listener/src/test/java in plain JVMs with the JVM flags
# spark-submit uses on Java 17. Embedded PostgreSQL (zonky) is started inside the benchmark JVM.
# JFR=1 additionally records a flight recording of the overhead run (target/bench/overhead.jfr).
set -euo pipefail
cd "$(dirname "$0")/.."
TASKS=${1:-20000}
ROUNDS=${2:-7}
BIG=${3:-200000}
OUT=listener/target/bench
mkdir -p "$OUT"

echo "== build (mvn -pl listener -am test-compile, no tests run)" >&2
mvn -q -B -pl listener -am -DskipTests test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath >&2

CP="listener/target/test-classes:listener/target/classes:store/target/test-classes:$(cat listener/target/bench.classpath)"
# the JVM options surefire uses for Spark (root pom's spark.jvm.opens)
OPENS=$(sed -n 's:.*<spark.jvm.opens>\(.*\)</spark.jvm.opens>.*:\1:p' pom.xml)
JAVA_OPTS=(${OPENS} -Xmx3g -Dlog4j2.configurationFile=listener/src/test/resources/log4j2.properties)
export SPARK_LOCAL_IP=127.0.0.1

echo "== machine"
echo "nproc: $(nproc)"; free -g | sed 's/^/  /'
java -version 2>&1 | sed 's/^/  /'
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

JFR_OPT=()
if [ "${JFR:-0}" = 1 ]; then
  JFR_OPT=(-XX:StartFlightRecording=filename=$OUT/overhead.jfr,settings=profile)
fi
echo
echo "== overhead: $TASKS tasks, $ROUNDS rounds (driver log: $OUT/overhead.log)"
java "${JAVA_OPTS[@]}" "${JFR_OPT[@]}" -cp "$CP" io.sparkscope.listener.bench.ListenerOverheadBench \
    overhead "$TASKS" "$ROUNDS" 2> "$OUT/overhead.log"
echo "load average after overhead: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "'Dropped' warnings in the driver log: $(grep -c 'Dropp' "$OUT/overhead.log" || true)"

echo
echo "== drops and retained heap: $BIG tasks (driver log: $OUT/drops.log)"
java "${JAVA_OPTS[@]}" -cp "$CP" io.sparkscope.listener.bench.ListenerOverheadBench drops "$BIG" \
    2> "$OUT/drops.log"
echo "'Dropped' warnings in the driver log: $(grep -c 'Dropp' "$OUT/drops.log" || true)"
grep 'Dropp' "$OUT/drops.log" | head -5 || true
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
