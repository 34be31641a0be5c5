#!/usr/bin/env bash
# The tuning loop's ledger on the advice rerun's own runs: does the history page say what the applied advice saved?
#
#   bench/advice-ledger.sh [--no-build] [app ...]
#
# Reads the runs that bench/advice-rerun.sh left in $ADVICE_RERUN_WORK (default bench/target/advice-rerun): per app,
# the baseline analysis run (analysis/<app>/) and the first fixed run (fixed-1/<app>/), which ran with the advised
# settings. Imports both, in that order, into a database of its own (bench/own-postgres.sh, database
# "sparkscope_ledger", emptied first), asks the server's /api/v1/history for the job's advice ledger and prints a
# Markdown table: per advised setting, whether the ledger saw it applied, the wall time it promised and the wall
# time the ledger measured between the two runs. Apps whose fix was a code change (no setting to see applied) are
# listed apart. One pair of runs per app: the figures are single runs, not medians (advice-rerun.sh has those).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${ADVICE_RERUN_WORK:-$REPO/bench/target/advice-rerun}
JAR=$REPO/server/target/sparkscope.jar
PORT=${LEDGER_PORT:-7398}

build=1 only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) only+=("$1") ;;
  esac
  shift
done
[[ -d $WORK/runs ]] || { echo "advice-ledger: no runs in $WORK/runs (run bench/advice-rerun.sh first)" >&2; exit 2; }
if [[ $build == 1 || ! -f $JAR ]]; then
  echo "building server (offline)..." >&2
  (cd "$REPO" && mvn -B -o -q -pl server -am package -DskipTests) >&2
fi

source "$REPO/bench/own-postgres.sh"
own_psql -d postgres -qc "DROP DATABASE IF EXISTS sparkscope_ledger" -c "CREATE DATABASE sparkscope_ledger"
DB="jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/sparkscope_ledger"

apps=("${only[@]}")
if [[ ${#apps[@]} == 0 ]]; then
  for d in "$WORK"/runs/*/; do apps+=("$(basename "$d")"); done
fi
for app in "${apps[@]}"; do
  for run in analysis fixed-1; do
    dir=$WORK/runs/$app/$run/$app
    [[ -d $dir ]] || { echo "advice-ledger: $app has no $run run in $WORK/runs/$app" >&2; exit 2; }
    java -jar "$JAR" import "$dir" --db "$DB" --user postgres >"$WORK/ledger-import.log" 2>&1 \
      || { cat "$WORK/ledger-import.log" >&2; exit 2; }
  done
done

java -jar "$JAR" serve --db "$DB" --user postgres --port "$PORT" >"$WORK/ledger-serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$PORT/api/v1/jobs" >/dev/null && break; sleep 1; done

# One Markdown row per ledger entry of the app's history answer (in LEDGER_JSON).
LEDGER_ROWS='
import json, os, sys
app = sys.argv[1]
d = json.loads(os.environ["LEDGER_JSON"])
for e in d.get("advice") or []:
    measured = "%.1f" % (e["savedWallMs"] / 1000) if e.get("applied") else "-"
    print("| %s | `%s=%s` (was %s) | %s | %.1f | %s | %s |" % (app, e["key"], e["recommendedValue"],
          e.get("valueThen") or "unset", "yes" if e.get("applied") else "no", e["promisedWallMs"] / 1000,
          measured, e["outcome"]))
'
echo "| app | setting advised | applied | promised wall s | measured wall s | what the ledger says |"
echo "|---|---|---|---:|---:|---|"
apart=()
for app in "${apps[@]}"; do
  json=$(curl -sf "http://127.0.0.1:$PORT/api/v1/history?name=$app") || { apart+=("$app (no history)"); continue; }
  rows=$(LEDGER_JSON=$json python3 -c "$LEDGER_ROWS" "$app")
  if [[ -z $rows ]]; then apart+=("$app (no setting advised: a code fix)"); else echo "$rows"; fi
done
if [[ ${#apart[@]} -gt 0 ]]; then
  echo
  echo "No ledger entry: $(IFS=','; echo "${apart[*]}" | sed 's/,/, /g')"
fi
