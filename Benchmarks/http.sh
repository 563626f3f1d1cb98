#!/usr/bin/env bash
# HTTP benchmark: the portal's server against nginx on the same machine, same files, same load.
#
#   Benchmarks/http.sh            (DURATION=10s CONNECTIONS=64 THREADS=2 by default)
#
# Serves a 1 KiB and a ~500 KiB JSON file from both servers on loopback (nginx: 2 workers,
# access log off; ours: 2 event loops, access log off), runs `wrk -t2 -c64 -d10s --latency`
# against each and prints req/s, p50, p99 and the ratio ours/nginx. Both servers are stopped by
# their process ids at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10s}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}

scripts/deps.sh wrk nginx-light
swift build -c release --explicit-target-dependency-import-check error >/dev/null
portal="$(swift build -c release --show-bin-path)/portal"

work=$(mktemp -d /tmp/portal-bench-http.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/files" "$work/nginx"
python3 - "$work/files" <<'PY'
import json, sys
out = sys.argv[1]
def document(target):
    items, i = [], 0
    while True:
        items.append({"id": i, "stem": f"Which subnet mask gives {2**(i%12+2)-2} usable hosts?", "options": ["/24", "/25", "/26", "/27"], "correct": [i % 4]})
        text = json.dumps({"format": 1, "questions": items}, separators=(",", ":"))
        if len(text) >= target:
            return text[:target - 2] + "]}" if False else text
        i += 1
small = document(1024)
large = document(500 * 1024)
open(f"{out}/small.json", "w").write(small)
open(f"{out}/large.json", "w").write(large)
PY
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ours_port=$(free_port)
nginx_port=$(free_port)

cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    types { application/json json; }
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/files;
    }
}
CONF

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

nginx -c "$work/nginx/nginx.conf" -g "daemon off;" &
pids+=($!)
PORT=$ours_port HOST=127.0.0.1 EVENT_LOOPS=2 ACCESS_LOG=off PUBLIC_DIR="$work/files" DATABASE_URL= \
    "$portal" serve >"$work/portal.log" 2>&1 &
pids+=($!)
for port in "$ours_port" "$nginx_port"; do
    for _ in $(seq 50); do
        curl -fs "http://127.0.0.1:$port/small.json" >/dev/null && break
        sleep 0.1
    done
done

# One wrk run; prints "req/s p50 p99" with latencies in milliseconds.
measure() {
    local url=$1 output
    wrk -t1 -c8 -d2s "$url" >/dev/null  # warm-up
    output=$(wrk -t"$threads" -c"$connections" -d"$duration" --latency "$url")
    python3 - "$output" <<'PY'
import re, sys
text = sys.argv[1]
def ms(value):
    number, unit = re.match(r"([\d.]+)(us|ms|s)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if errors: sys.exit(f"wrk saw {errors.group(1)} error responses")
print(f"{rps:.0f} {p50:.3f} {p99:.3f}")
PY
}

echo "wrk -t$threads -c$connections -d$duration --latency, loopback, $(nproc) cores"
printf "%-12s %-8s %12s %10s %10s\n" file server "req/s" "p50 ms" "p99 ms"
summary=()
for file in small.json large.json; do
    read -r n_rps n_p50 n_p99 < <(measure "http://127.0.0.1:$nginx_port/$file")
    read -r o_rps o_p50 o_p99 < <(measure "http://127.0.0.1:$ours_port/$file")
    printf "%-12s %-8s %12s %10s %10s\n" "$file" nginx "$n_rps" "$n_p50" "$n_p99"
    printf "%-12s %-8s %12s %10s %10s\n" "$file" portal "$o_rps" "$o_p50" "$o_p99"
    summary+=("$file: ours/nginx = $(python3 -c "print(f'{$o_rps/$n_rps:.2f}')")x req/s")
done
printf "%s\n" "${summary[@]}"
