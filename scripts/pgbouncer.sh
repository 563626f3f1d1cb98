#!/usr/bin/env bash
# Debian's PgBouncer in transaction mode in front of a private cluster, as a deployment puts
# it: a plain configuration (no ignore_startup_parameters), every database passed through.
#
#   scripts/pgbouncer.sh start DIR PGSOCKETDIR [PORT]   start it (unix socket in DIR/run, and
#                                                        127.0.0.1:PORT when PORT is given);
#                                                        DIR/env gets POOLER_SOCKET_DIR
#   scripts/pgbouncer.sh stop DIR                        stop it (by its pid)
#   scripts/pgbouncer.sh pause|resume DIR                hold or release new transactions
#
# PgBouncer refuses to run as root: under root it runs as Debian's `postgres` user.
set -euo pipefail

command=${1:?usage: scripts/pgbouncer.sh start|stop DIR [PGSOCKETDIR] [PORT]}
dir=${2:?usage: scripts/pgbouncer.sh start|stop DIR [PGSOCKETDIR] [PORT]}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
pidfile="$dir/pgbouncer.pid"

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# shellcheck source=scripts/process.sh
. "$(dirname "$0")/process.sh"
running() { alive "$pidfile"; }

case "$command" in
start)
    upstream=${3:?usage: scripts/pgbouncer.sh start DIR PGSOCKETDIR [PORT]}
    port=${4:-}
    command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || { echo "pgbouncer not found; run scripts/deps.sh pgbouncer" >&2; exit 1; }
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    as_owner mkdir -p "$dir/run"
    listen_addr=""
    [ -n "$port" ] && listen_addr="127.0.0.1"
    as_owner tee "$dir/pgbouncer.ini" >/dev/null <<INI
[databases]
* = host=$upstream

[pgbouncer]
pool_mode = transaction
listen_addr = $listen_addr
listen_port = ${port:-6432}
unix_socket_dir = $dir/run
auth_type = trust
auth_file = $dir/users.txt
max_client_conn = 2000
default_pool_size = 40
server_reset_query =
logfile = $dir/pgbouncer.log
pidfile = $pidfile
admin_users = postgres
INI
    as_owner tee "$dir/users.txt" >/dev/null <<USERS
"postgres" ""
"portal_app" ""
"portal_owner" ""
USERS
    if ! running; then
        rm -f "$pidfile"
        as_owner /usr/sbin/pgbouncer -d "$dir/pgbouncer.ini" >/dev/null
        for _ in $(seq 100); do running && [ -S "$dir/run/.s.PGSQL.${port:-6432}" ] && break; sleep 0.05; done
        running || { tail -n 20 "$dir/pgbouncer.log" >&2; exit 1; }
    fi
    echo "POOLER_SOCKET_DIR=$dir/run" > "$dir/env"
    echo "POOLER_PORT=${port:-6432}" >> "$dir/env"
    echo "PgBouncer (transaction mode) is running in $dir/run"
    ;;
stop)
    stop_pid "$pidfile"
    ;;
*)
    echo "usage: scripts/pgbouncer.sh start|stop DIR [PGSOCKETDIR] [PORT]" >&2
    exit 2
    ;;
esac
