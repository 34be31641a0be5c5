# Sourced by benches that write into Debian's PostgreSQL 15 cluster on 127.0.0.1:5432 (started here if it is down):
# sets user postgres's password to $PW, recreates database $DB empty, and builds the bench module (no install) unless
# BENCH_SKIP_BUILD=1 and a build exists. Sets cp: the bench's runtime classpath.
pg_lsclusters | grep -q ' online' || pg_ctlcluster 15 main start
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$PW'\"" >/dev/null
su postgres -c "psql -qc 'DROP DATABASE IF EXISTS $DB'" >/dev/null
su postgres -c "createdb $DB"
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -f bench/target/classpath.txt ]; then
  echo "building (mvn -q -DskipTests -pl bench -am package) ..." >&2
  mvn -q -B -o -DskipTests -pl bench -am package >&2
fi
cp="bench/target/classes:$(cat bench/target/classpath.txt)"
