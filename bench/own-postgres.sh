#!/usr/bin/env bash
# Sourced by benches that need a PostgreSQL of their own (not a shared one on 5432): starts Debian's PostgreSQL
# binaries on a data directory and port of the bench's own, once, and leaves it running for reruns.
#   OWN_PG_DIR (default /tmp/sparkscope-bench-pg), OWN_PG_PORT (default 5499)
# Sets OWN_PG_URL (jdbc URL of database "sparkscope", user postgres, no password: trust on 127.0.0.1) and own_psql.
# Stop it with: su postgres -c "$OWN_PG_BIN/pg_ctl -D $OWN_PG_DIR stop"
OWN_PG_DIR=${OWN_PG_DIR:-/tmp/sparkscope-bench-pg}
OWN_PG_PORT=${OWN_PG_PORT:-5499}
OWN_PG_BIN=${OWN_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$OWN_PG_BIN/initdb" ] || { echo "no PostgreSQL binaries (apt-get install -y postgresql)" >&2; exit 2; }
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
if [ ! -f "$OWN_PG_DIR/PG_VERSION" ]; then
  mkdir -p "$OWN_PG_DIR"; if [ "$(id -u)" = 0 ]; then chown postgres "$OWN_PG_DIR"; fi
  as_pg "$OWN_PG_BIN/initdb -D $OWN_PG_DIR -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
  # A bench database: durability off (a crash loses the bench data, nothing else), memory for a 2-core box.
  cat >> "$OWN_PG_DIR/postgresql.conf" <<EOF || exit 2
listen_addresses = '127.0.0.1'
port = $OWN_PG_PORT
unix_socket_directories = '$OWN_PG_DIR'
shared_buffers = 512MB
work_mem = 16MB
maintenance_work_mem = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
max_wal_size = 4GB
EOF
fi
if ! as_pg "$OWN_PG_BIN/pg_isready -q -h 127.0.0.1 -p $OWN_PG_PORT"; then
  as_pg "$OWN_PG_BIN/pg_ctl -D $OWN_PG_DIR -l $OWN_PG_DIR/server.log -w start" >/dev/null
fi
own_psql() { "$OWN_PG_BIN/psql" -h 127.0.0.1 -p "$OWN_PG_PORT" -U postgres "$@"; }
own_psql -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname = 'sparkscope'" | grep -q 1 \
  || own_psql -d postgres -qc "CREATE DATABASE sparkscope"
OWN_PG_URL="jdbc:postgresql://127.0.0.1:$OWN_PG_PORT/sparkscope"
