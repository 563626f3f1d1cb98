#!/usr/bin/env bash
# The Nu Html Checker as a web service on loopback, for a test run: one Java for the whole run
# instead of one per check. Usage:
#   scripts/html-checker.sh start VENV_DIR DIR   prints the service's URL (the jar from VENV_DIR,
#                                                 installed by scripts/html-validator.sh)
#   scripts/html-checker.sh stop DIR              stops it by its process id
set -euo pipefail
command=${1:?usage: scripts/html-checker.sh start VENV_DIR DIR | stop DIR}
case "$command" in
start)
    venv=${2:?the virtual environment of scripts/html-validator.sh}
    dir=${3:?a folder for its pid and log}
    mkdir -p "$dir"
    jar=$(find "$venv" -name vnu.jar -print -quit)
    [ -n "$jar" ] || { echo "no vnu.jar under $venv" >&2; exit 1; }
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    java -Xss2048k -Dnu.validator.servlet.bind-address=127.0.0.1 -cp "$jar" nu.validator.servlet.Main "$port" >"$dir/checker.log" 2>&1 &
    echo $! >"$dir/checker.pid"
    for _ in $(seq 1 240); do
        if python3 -c "import urllib.request, sys; urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:$port/', headers={'User-Agent': 'portal'}), timeout=1)" 2>/dev/null; then
            echo "http://127.0.0.1:$port/"
            exit 0
        fi
        kill -0 "$(cat "$dir/checker.pid")" 2>/dev/null || break
        sleep 0.5
    done
    echo "the Nu Html Checker's service did not start; see $dir/checker.log" >&2
    exit 1
    ;;
stop)
    dir=${2:?the folder given to start}
    if [ -f "$dir/checker.pid" ]; then
        kill "$(cat "$dir/checker.pid")" 2>/dev/null || true
        rm -f "$dir/checker.pid"
    fi
    ;;
*)
    echo "usage: scripts/html-checker.sh start VENV_DIR DIR | stop DIR" >&2
    exit 2
    ;;
esac
