#!/usr/bin/env bash
# Diagnosis quality: how often "Fix this first" names the labelled root cause.
#
#   bench/diagnosis.sh [--no-build] [--rerun] [app ...]
#
# Builds the server and examples jars offline, runs each corpus app whose event log is missing (one JVM per app,
# Spark local mode, or local-cluster with a Spark home of the examples' jars: bench/spark-home.sh) into $DIAGNOSIS_WORK
# (default bench/target/diagnosis), runs `sparkscope analyze --json` on each
# log and prints per app: the first "Fix this first" item, top-1 correct?, top-3 recall and false HIGH findings, then
# totals. Labels: examples/corpus/labels/<app>.json. With the shared real logs present ($SHARED_EVENTLOGS, default
# /work/shared/eventlogs) it also scores examples/corpus/shared-labels/*.json against them.
# Exit 2, with one line naming it, on a bad label or an app without a log.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${DIAGNOSIS_WORK:-$REPO/bench/target/diagnosis}
SHARED=${SHARED_EVENTLOGS:-/work/shared/eventlogs}
LABELS=$REPO/examples/corpus/labels
SHARED_LABELS=$REPO/examples/corpus/shared-labels
EXAMPLES=$REPO/examples/target/sparkscope-examples.jar
SERVER=$REPO/server/target/sparkscope.jar
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}

build=1 rerun=0 only=()
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    --rerun) rerun=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) only+=("$a") ;;
  esac
done

if [[ $build == 1 || ! -f $EXAMPLES || ! -f $SERVER ]]; then
  echo "building server and examples (offline)..." >&2
  (cd "$REPO" && mvn -B -o -q -pl server,examples -am package -DskipTests) >&2
fi

# shellcheck source=bench/spark-java.sh
source "$REPO/bench/spark-java.sh" # SPARK_JAVA: the JVM flags spark-submit adds on Java 17
# shellcheck source=bench/spark-home.sh
source "$REPO/bench/spark-home.sh"
score() { java -cp "$EXAMPLES" io.sparkscope.examples.corpus.DiagnosisScore "$@"; }

# Labels first: a label naming an unknown heuristic stops here, before minutes of Spark runs.
score check "$LABELS" >&2 || exit 2

mkdir -p "$WORK/logs" "$WORK/json" "$WORK/work" "$WORK/runs"
# the apps on local-cluster start their executors from it
corpus_spark_home "$WORK/spark-home" "$EXAMPLES" || exit 2
declare -A JVM_OPTS
while IFS=$'\t' read -r name _ opts; do JVM_OPTS[$name]=$opts; done \
  < <(java -cp "$EXAMPLES" io.sparkscope.examples.corpus.CorpusRun list)

has_log() { [[ -d $1 ]] && [[ $(find "$1" -maxdepth 1 -type f ! -name '*.inprogress' ! -name '.*' | wc -l) == 1 ]]; }

mapfile -t apps < <(score logs "$LABELS" | cut -f1)
if [[ ${#only[@]} -gt 0 ]]; then apps=("${only[@]}"); fi
run_apps() { # JVM options (maybe empty), then app names: one JVM runs them one after another
  local opts=$1; shift
  echo "running corpus app(s) $* (output: $WORK/runs/$1.out)..." >&2
  # shellcheck disable=SC2086 # the apps' JVM options are space-separated on purpose
  java "${SPARK_JAVA[@]}" $opts -cp "$EXAMPLES" io.sparkscope.examples.corpus.CorpusRun \
    --out "$WORK/logs" --work "$WORK/work" "$@" > "$WORK/runs/$1.out" 2>&1 || true
}
plain=()
for app in "${apps[@]}"; do
  if [[ ! -f $LABELS/$app.json ]]; then echo "diagnosis: no label for app $app ($LABELS/$app.json)" >&2; exit 2; fi
  if [[ -z ${JVM_OPTS[$app]+x} ]]; then echo "diagnosis: label $app.json names no corpus app" >&2; exit 2; fi
  if [[ $rerun == 1 ]] || ! has_log "$WORK/logs/$app"; then
    # apps without JVM options share one JVM (Spark's start-up is paid once); the others run alone with theirs
    if [[ -z ${JVM_OPTS[$app]} ]]; then plain+=("$app"); else run_apps "${JVM_OPTS[$app]}" "$app"; fi
  fi
done
if [[ ${#plain[@]} -gt 0 ]]; then run_apps "" "${plain[@]}"; fi
for app in "${apps[@]}"; do
  if ! has_log "$WORK/logs/$app"; then
    echo "diagnosis: app $app has no complete event log in $WORK/logs/$app (see $WORK/runs/)" >&2; exit 2
  fi
  java -jar "$SERVER" analyze --json "$WORK/logs/$app" > "$WORK/json/$app.json" 2> "$WORK/json/$app.err"
done

if [[ ${#only[@]} -gt 0 ]]; then
  # score only the apps asked for
  mkdir -p "$WORK/only-labels"; rm -f "$WORK/only-labels"/*.json
  for app in "${apps[@]}"; do cp "$LABELS/$app.json" "$WORK/only-labels/"; done
  score score "$WORK/only-labels" "$WORK/json" "corpus apps (selected)"
else
  score score "$LABELS" "$WORK/json" "corpus apps (examples/corpus/labels)"
fi

echo
if [[ ! -d $SHARED ]]; then
  echo "shared real logs: skipped ($SHARED absent; set SHARED_EVENTLOGS to score them)"
  exit 0
fi
score check "$SHARED_LABELS" >&2 || exit 2
mkdir -p "$WORK/shared-json"
while IFS=$'\t' read -r app log; do
  if [[ -z $log || ! -e $SHARED/$log ]]; then
    echo "diagnosis: shared label $app.json: log '$log' not found under $SHARED" >&2; exit 2
  fi
  java -jar "$SERVER" analyze --json "$SHARED/$log" > "$WORK/shared-json/$app.json" 2> "$WORK/shared-json/$app.err"
done < <(score logs "$SHARED_LABELS")
score score "$SHARED_LABELS" "$WORK/shared-json" "shared real logs (examples/corpus/shared-labels, logs under $SHARED)"
