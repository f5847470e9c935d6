#!/usr/bin/env bash
# A PostgreSQL of a test's own (Debian's `postgresql` package): a new cluster in FOLDER,
# listening only on a Unix socket there. PostgreSQL refuses to run as root (CI runs as root), so
# then it runs as `nobody`, which owns the folder (the Swift suites' TestPostgres does the same).
#
# Usage: test-postgres.sh start FOLDER   → prints the database URL for confab-server's --db
#        test-postgres.sh stop FOLDER
set -euo pipefail
action=$1 folder=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/pg_ctl" ] || { echo "PostgreSQL's server programs are not installed (Debian package postgresql)" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" = 0 ]; then (cd "$folder" && /usr/sbin/runuser -u nobody -- "$@"); else (cd "$folder" && "$@"); fi
}
case $action in
  start)
    mkdir -p "$folder"
    [ "$(id -u)" = 0 ] && chown nobody: "$folder"
    as_owner "$bin/initdb" -D "$folder/data" -U confab --auth=trust --no-sync --encoding=UTF8 --locale=C >"$folder/initdb.out" 2>&1
    as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
      -o "-k $folder -c listen_addresses= -p 5432 -c fsync=off -c full_page_writes=off" start >"$folder/pg_ctl.out" 2>&1
    as_owner "$bin/createdb" -h "$folder" -p 5432 -U confab confab
    echo "postgres://confab@/confab?host=$folder"
    ;;
  stop)
    if [ -e "$folder/data/postmaster.pid" ]; then as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true; fi
    ;;
esac
