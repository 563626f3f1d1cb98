#!/usr/bin/env bash
# A private Redis server in a folder of this checkout: a unix socket only (no TCP port that
# another checkout could hold), no persistence, never a system-wide service.
#
#   scripts/redis.sh start DIR    start it (if not running) and write DIR/env with REDIS_URL
#   scripts/redis.sh stop DIR     stop it (by its pid)
#   scripts/redis.sh status DIR   exit 0 when it is running
set -euo pipefail

command=${1:?usage: scripts/redis.sh start|stop|status DIR}
dir=${2:?usage: scripts/redis.sh start|stop|status DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
socket="$dir/redis.sock"
pidfile="$dir/redis.pid"

# shellcheck source=scripts/process.sh
. "$(dirname "$0")/process.sh"
running() { alive "$pidfile"; }

case "$command" in
start)
    command -v redis-server >/dev/null || { echo "redis-server not found; run scripts/deps.sh" >&2; exit 1; }
    if ! running; then
        rm -f "$socket" "$pidfile"
        redis-server --port 0 --unixsocket "$socket" --unixsocketperm 700 --save "" --appendonly no \
            --daemonize yes --pidfile "$pidfile" --logfile "$dir/redis.log" --dir "$dir" >/dev/null
        for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
        [ -S "$socket" ] || { echo "redis-server did not start; see $dir/redis.log" >&2; exit 1; }
    fi
    echo "REDIS_URL=unix://$socket" > "$dir/env"
    echo "Redis is running on unix://$socket"
    ;;
stop)
    stop_pid "$pidfile"
    ;;
status)
    running
    ;;
*)
    echo "usage: scripts/redis.sh start|stop|status DIR" >&2
    exit 2
    ;;
esac
