#!/usr/bin/env bash
# Key-stage prediction bench: run the examples' recurring-etl job once per input scale, each in a
# fresh JVM (so no run pays another's JIT/class loading), then train KeyStagePredictor on all but the largest run and
# predict the largest (PredictionBench). Run it on an otherwise idle machine: the figures are wall-clock stage times.
#   bench/prediction-series.sh [outDir=/tmp/pb/series] [scales…=8 16 32 64 128]   (scale = 150 000 CSV rows ≈ 7.8 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/pb/series}; shift || true
SCALES=${*:-8 16 32 64 128}
[ -f examples/target/sparkscope-examples.jar ] || mvn -q -o -DskipTests package
mvn -q -o -pl heuristics-core/diagnosis -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/hc.cp >/dev/null
for s in $SCALES; do
  start=$(date +%s.%N)
  java -jar examples/target/sparkscope-examples.jar --out "$OUT" --work /tmp/pb/work --scale "$s" recurring-etl >/tmp/pb-run-$s.log 2>&1
  echo "scale $s: $(echo "$(date +%s.%N) - $start" | bc) s (load $(cut -d' ' -f1 /proc/loadavg))"
done
CP=heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes:$(cat /tmp/hc.cp)
java -cp "$CP" io.sparkscope.core.analysis.prediction.PredictionBench "$OUT"
