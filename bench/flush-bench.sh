#!/usr/bin/env bash
# Work per flush of a long-running application (docs/benchmarks/long-running-drivers.md): the time and bytes of one
# listener flush after 1 000, 10 000 and 100 000 completed stages, written to a real PostgreSQL (Debian's
# PostgreSQL 15 on 127.0.0.1:5432), for what the listener writes now (changed entities, window of 1 000) and, with
# BEFORE=1, for what it wrote before (the whole application every flush; sizes default to 1000,10000 there).
#
#   bench/flush-bench.sh [sizes=1000,10000,100000]
#
# Needs: Debian postgresql (pg_ctlcluster); started here if it is down. BENCH_SKIP_BUILD=1 reuses the last build.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${1:-1000,10000,100000}
DB=sparkscope_flush
PW=bench
URL="jdbc:postgresql://127.0.0.1:5432/$DB"
source bench/debian-db.sh
echo "# $(date -u +%FT%TZ), $(nproc) vCPU, $(java -version 2>&1 | head -1), PostgreSQL $(su postgres -c "psql -qtAc 'SHOW server_version'")"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx2g -cp "$cp" io.sparkscope.bench.FlushBench "$URL" postgres "$PW" "$SIZES" 2>/dev/null
if [ "${BEFORE:-0}" = 1 ]; then
  java -Xmx4g -cp "$cp" io.sparkscope.bench.FlushBench "$URL" postgres "$PW" --before "${BEFORE_SIZES:-1000,10000}" 2>/dev/null
fi
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
