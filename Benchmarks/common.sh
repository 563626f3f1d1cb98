# Shared by the benchmark scripts that need the database: sourced, not run.
#
# Installs what is missing (plus the packages named in BENCH_PACKAGES), builds the release
# binary, starts the private benchmark cluster and loads its environment. Defines:
#   portal, bindir, data, cluster   the binary, PostgreSQL's tools, the data folder, the cluster
#   as_postgres CMD…                runs CMD as Debian's postgres user under root
#   free_port                       prints a free loopback port
#   pgbench_ready                   a pgbench database at scale 10 on the cluster, for references
#   pgbench_tpcb CLIENTS SECONDS    prints pgbench's TPC-B-like tps (prepared) on that database
#   superuser_psql DATABASE         prints a psql command line for DATABASE as the superuser
#   start_portal LOG [VAR=value…]   serves the portal on a free port; sets server_pid and port
#   stop_benchmark                  stops the server and the cluster (call it from an EXIT trap)
# shellcheck disable=SC2034  # the variables are for the scripts that source this file
scripts/deps.sh ${BENCH_PACKAGES:-}
swift build -c release --explicit-target-dependency-import-check error >/dev/null
portal="$(swift build -c release --show-bin-path)/portal"
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
data=$(scripts/data-dir.sh)
cluster="$data/bench-pg"
scripts/pg.sh start "$cluster" >/dev/null
# shellcheck disable=SC1091
set -a; . "$cluster/env"; set +a
server_pid=""
port=""

as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

pgbench_ready() {
    as_postgres "$bindir/psql" -X -q -h "$PGHOST" -U postgres -d postgres \
        -c "SELECT 1 FROM pg_database WHERE datname = 'pgbench'" | grep -q 1 \
        || as_postgres "$bindir/createdb" -h "$PGHOST" -U postgres pgbench
    as_postgres "$bindir/pgbench" -q -i -s 10 -h "$PGHOST" -U postgres pgbench >/dev/null 2>&1
}

pgbench_tpcb() {
    as_postgres "$bindir/pgbench" -n -c "$1" -j 2 -T "$2" -M prepared -h "$PGHOST" -U postgres pgbench 2>/dev/null \
        | awk '/^tps = / { printf "%d", $3 }'
}

superuser_psql() {
    local command="$bindir/psql -X -q -h $PGHOST -U postgres -d $1"
    if [ "$(id -u)" -eq 0 ]; then echo "runuser -u postgres -- $command"; else echo "$command"; fi
}

start_portal() {
    local log=$1
    shift
    port=$(free_port)
    env PORT="$port" ACCESS_LOG=off PORTAL_MODE=production "$@" "$portal" serve >"$log" 2>&1 &
    server_pid=$!
    for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
}

stop_benchmark() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    scripts/pg.sh stop "$cluster"
}
