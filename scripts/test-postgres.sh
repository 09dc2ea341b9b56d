#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on loopback for the tests (Debian's postgresql package).
#   scripts/test-postgres.sh start DIR [PORT]   initdb into DIR (new), start on 127.0.0.1:PORT (default 55432),
#                                               print the TEST_DATABASE_URL line to export
#   scripts/test-postgres.sh stop DIR           stop that cluster (fast shutdown) and delete DIR
# initdb refuses to run as root: as root, DIR is owned by and the server runs as the `postgres` user.
# Trust authentication, loopback only, no fsync (a test cluster: speed over durability).
set -euo pipefail
BIN=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2; }

as_owner() { # runs a command as the cluster's owner
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; else "$@"; fi
}

case $cmd in
  start)
    port=${3:-55432}
    [ -x "$BIN/initdb" ] || { echo "PostgreSQL not found in $BIN (apt-get install postgresql)" >&2; exit 1; }
    [ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || { echo "$dir is not empty" >&2; exit 1; }
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    as_owner "$BIN/initdb" -D "$dir" -A trust -U postgres --no-sync >"$dir.initdb.log" 2>&1 \
      || { cat "$dir.initdb.log" >&2; exit 1; }
    as_owner "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 30 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    rm -f "$dir.initdb.log"
    echo "TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -f "$dir/postmaster.pid" ]; then as_owner "$BIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true; fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2 ;;
esac
