# Process helpers for the scripts that start servers in the background: sourced, not run.
#   alive PIDFILE      exit 0 when the process named in PIDFILE runs
#   stop_pid PIDFILE   stop that process (TERM, then KILL after 10 s) and remove PIDFILE
alive() { [ -f "$1" ] && kill -0 "$(head -n 1 "$1")" 2>/dev/null; }
stop_pid() {
    local file=$1 pid
    if alive "$file"; then
        pid=$(head -n 1 "$file")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
        if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    fi
    rm -f "$file"
}
