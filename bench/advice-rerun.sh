#!/usr/bin/env bash
# Advice proven by rerunning it: does fixing what "Fix this first" names first save what it promises?
#
#   bench/advice-rerun.sh [--no-build] [--runs N] [--fix auto|settings|code] [app ...]
#
# For each corpus app whose label (examples/corpus/labels/<app>.json) names a cause (all of them, or those named):
# runs the app once and analyzes its event log as `sparkscope analyze --json` does; takes the first "Fix this first"
# item, the saving it promises (its finding's impact.wallMs) and its fix: the finding's advised Spark settings, set on
# top of the app's own, or the app's fixed variant when the advice names no setting (code-level advice). Then runs
# fixed and baseline alternately N times (default 3) in the same JVM and prints a Markdown table per app: promised
# saving, measured saving (median baseline - median fixed duration), faster?, error of the promise
# ((promised - measured) / measured); then the share of apps made faster (target >= 80 %) and the median error
# (target within +-50 %). Apps whose first item has no advice and no fixed variant are listed apart.
# --fix settings: advised settings only; --fix code: the fixed variant whenever the app has one.
# Work dir $ADVICE_RERUN_WORK (default bench/target/advice-rerun): runs/<app>/ (logs, analyses), results/<app>.json,
# advice-rerun.md. Timing: run it alone on a quiet machine (about 7 runs per app; the whole corpus takes ~30 min).
# Exit 2, with one line naming it, for an app without a label or a label without an app.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${ADVICE_RERUN_WORK:-$REPO/bench/target/advice-rerun}
LABELS=$REPO/examples/corpus/labels
EXAMPLES=$REPO/examples/target/sparkscope-examples.jar
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}

build=1 runs=3 fix=auto only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) build=0 ;;
    --runs) runs=${2:?--runs needs a value}; shift ;;
    --fix) fix=${2:?--fix needs a value}; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) only+=("$1") ;;
  esac
  shift
done

if [[ $build == 1 || ! -f $EXAMPLES ]]; then
  echo "building examples (offline)..." >&2
  (cd "$REPO" && mvn -B -o -q -pl examples -am package -DskipTests) >&2
fi

# shellcheck source=bench/spark-java.sh
source "$REPO/bench/spark-java.sh" # SPARK_JAVA: the JVM flags spark-submit adds on Java 17
# shellcheck source=bench/spark-home.sh
source "$REPO/bench/spark-home.sh"
rerun() { java "${SPARK_JAVA[@]}" "$@"; }
main=io.sparkscope.examples.corpus.AdviceRerun

# app -> JVM options, for every app whose label names a cause (also checks every label)
declare -A JVM_OPTS
apps=()
listing=$(java -cp "$EXAMPLES" $main apps "$LABELS") || exit 2
while IFS=$'\t' read -r name opts; do
  if [[ -n $name ]]; then JVM_OPTS[$name]=$opts; apps+=("$name"); fi
done <<< "$listing"
if [[ ${#only[@]} -gt 0 ]]; then
  apps=()
  for app in "${only[@]}"; do
    if [[ ! -f $LABELS/$app.json ]]; then echo "advice-rerun: no label for app $app ($LABELS/$app.json)" >&2; exit 2; fi
    if [[ -z ${JVM_OPTS[$app]+x} ]]; then
      echo "advice-rerun: app $app: no corpus app of that name, or its label names no cause" >&2; exit 2
    fi
    apps+=("$app")
  done
fi

mkdir -p "$WORK/sessions"
# the apps on local-cluster start their executors from it
corpus_spark_home "$WORK/spark-home" "$EXAMPLES" || exit 2
session() { # JVM options (maybe empty), then app names: one JVM reruns them one after another
  local opts=$1; shift
  echo "rerunning $* (output: $WORK/sessions/$1.out)..." >&2
  # shellcheck disable=SC2086 # the apps' JVM options are space-separated on purpose
  rerun $opts -cp "$EXAMPLES" $main run --labels "$LABELS" --work "$WORK" --runs "$runs" --fix "$fix" "$@" \
    > "$WORK/sessions/$1.out" 2>&1 || { echo "advice-rerun: session $1 failed (see $WORK/sessions/$1.out)" >&2; exit 1; }
  grep "^advice-rerun: " "$WORK/sessions/$1.out" >&2 || true
}
plain=()
for app in "${apps[@]}"; do
  # apps without JVM options share one JVM; the others run alone with theirs
  if [[ -z ${JVM_OPTS[$app]} ]]; then plain+=("$app"); else session "${JVM_OPTS[$app]}" "$app"; fi
done
if [[ ${#plain[@]} -gt 0 ]]; then session "" "${plain[@]}"; fi

java -cp "$EXAMPLES" $main report --work "$WORK" "${apps[@]}"
