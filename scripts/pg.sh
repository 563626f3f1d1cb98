#!/usr/bin/env bash
# A private PostgreSQL cluster in a folder of this checkout: unix socket only (no TCP port that
# another checkout could hold), never a system-wide service.
#
#   scripts/pg.sh start DIR     initialise if needed, start, create the roles and the `portal`
#                               database, and write DIR/env with DATABASE_URL and
#                               DATABASE_ADMIN_URL
#   scripts/pg.sh stop DIR      stop it (by its postmaster's pid)
#   scripts/pg.sh restart DIR   restart it, keeping the data
#   scripts/pg.sh status DIR    exit 0 when it is running
#
# PostgreSQL refuses to run as root: under root the cluster runs as Debian's `postgres` user.
set -euo pipefail

command=${1:?usage: scripts/pg.sh start|stop|restart|status DIR}
dir=${2:?usage: scripts/pg.sh start|stop|restart|status DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
data="$dir/data"
socket="$dir/run"
log="$dir/postgres.log"

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
[ -x "$bindir/initdb" ] || { echo "initdb not found; run scripts/deps.sh" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

ensure_owned() {
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
        chmod 0755 "$dir"
        # The postgres user must be able to reach the folder through every parent.
        if ! runuser -u postgres -- test -x "$dir"; then
            echo "The postgres user cannot reach $dir; set PORTAL_DATA_DIR to a folder it can reach." >&2
            exit 1
        fi
    fi
}

is_running() {
    as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1
}

start() {
    ensure_owned
    if [ ! -f "$data/PG_VERSION" ]; then
        echo "Initialising a private PostgreSQL cluster in $data"
        as_owner "$bindir/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner mkdir -p "$socket"
    if ! is_running; then
        as_owner "$bindir/pg_ctl" -D "$data" -l "$log" -w -t 60 start \
            -o "-c listen_addresses='' -c unix_socket_directories='$socket' -c max_connections=300 -c shared_buffers=256MB -c fsync=${PG_FSYNC:-on} -c synchronous_commit=${PG_SYNCHRONOUS_COMMIT:-on}" \
            >/dev/null || { tail -n 20 "$log" >&2; exit 1; }
    fi
    local psql=("$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$socket" -U postgres -d postgres)
    as_owner "${psql[@]}" <<'SQL'
SELECT 'CREATE ROLE portal_owner LOGIN CREATEDB CREATEROLE'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_owner') \gexec
SELECT 'CREATE ROLE portal_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_app') \gexec
SELECT 'CREATE DATABASE portal OWNER portal_owner'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'portal') \gexec
SQL
    local encoded=${socket//\//%2F}
    cat >"$dir/env" <<ENV
DATABASE_URL=postgresql://portal_app@$encoded/portal
DATABASE_ADMIN_URL=postgresql://portal_owner@$encoded/portal
PGHOST=$socket
ENV
}

stop() {
    if is_running; then
        as_owner "$bindir/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null
    fi
}

case "$command" in
    start) start ;;
    stop) stop ;;
    restart) ensure_owned; as_owner "$bindir/pg_ctl" -D "$data" -l "$log" -m fast -w -t 60 restart >/dev/null ;;
    status) is_running ;;
    *) echo "unknown command $command" >&2; exit 2 ;;
esac
