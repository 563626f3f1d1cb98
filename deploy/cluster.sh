#!/usr/bin/env bash
# A rehearsal of a real deployment on this one machine, from Debian's own packages:
#
#   PostgreSQL primary (127.0.0.1:55432) ⇄ synchronous streaming replica (127.0.0.1:55433)
#   PgBouncer, transaction mode (127.0.0.1:56432) in front of the primary
#   three portal instances (127.0.0.1:18081-18083)
#   HAProxy (127.0.0.1:18080) in front of them, health-checking /readyz
#   Redis master (16379) and replica (16380) watched by three Sentinels (26379-26381)
#
#   deploy/cluster.sh start        start everything (built in release mode, or CLUSTER_BUILD=debug), print the URL
#   deploy/cluster.sh stop         stop everything, by pid
#   deploy/cluster.sh status       what is running
#   deploy/cluster.sh kill-portal N | start-portal N
#   deploy/cluster.sh restart-pgbouncer
#   deploy/cluster.sh failover     stop the primary, promote the replica
#   deploy/cluster.sh redis-failover  kill the Redis master; the Sentinels promote the replica
#   deploy/cluster.sh backup-drill pg_dump the primary, restore it into a scratch database, compare
#
# Everything lives under $CLUSTER_DIR (default: the data folder's cluster/). The configuration
# files it writes are the ones deploy/README.md shows; PostgreSQL and PgBouncer run as
# Debian's `postgres` user when started as root.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
command=${1:-start}
dir=${CLUSTER_DIR:-$(scripts/data-dir.sh)/cluster}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
primary="$dir/pg-primary" replica="$dir/pg-replica"
PRIMARY_PORT=55432 REPLICA_PORT=55433 BOUNCER_PORT=56432 PROXY_PORT=18080
PORTAL_PORTS=(18081 18082 18083)
REDIS_PORTS=(16379 16380) SENTINEL_PORTS=(26379 26380 26381)

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# shellcheck source=scripts/process.sh
. scripts/process.sh
wait_for_port() {
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "nothing listens on 127.0.0.1:$1" >&2
    return 1
}
psql_admin() { as_postgres "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d "${2:-postgres}" "${@:3}"; }

app_env() {
    cat <<ENV
DATABASE_URL=postgresql://portal_app@127.0.0.1:$BOUNCER_PORT,127.0.0.1:$REPLICA_PORT/portal?target_session_attrs=read-write
DATABASE_POOLER=transaction
DATABASE_REPLICA_URL=postgresql://portal_app@127.0.0.1:$REPLICA_PORT/portal
DATABASE_ADMIN_URL=postgresql://portal_owner@127.0.0.1:$PRIMARY_PORT,127.0.0.1:$REPLICA_PORT/portal?target_session_attrs=read-write
REDIS_URL=redis-sentinel://127.0.0.1:${SENTINEL_PORTS[0]},127.0.0.1:${SENTINEL_PORTS[1]},127.0.0.1:${SENTINEL_PORTS[2]}/portal
PUBLIC_URL=http://127.0.0.1:$PROXY_PORT
TRUSTED_PROXIES=127.0.0.1
PORTAL_MODE=production
ACCESS_LOG=off
SHUTDOWN_DRAIN_SECONDS=2
LEADERBOARD_REFRESH_SECONDS=30
ENV
}

start_postgres() {
    [ -x "$bindir/initdb" ] || { echo "initdb not found; run scripts/deps.sh" >&2; exit 1; }
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    if [ ! -f "$primary/PG_VERSION" ]; then
        as_postgres "$bindir/initdb" -D "$primary" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
        as_postgres cp "$root/deploy/postgresql.conf" "$primary/conf.d.conf"
        echo "include = 'conf.d.conf'" | as_postgres tee -a "$primary/postgresql.conf" >/dev/null
        echo "host replication postgres 127.0.0.1/32 trust" | as_postgres tee -a "$primary/pg_hba.conf" >/dev/null
    fi
    if ! as_postgres "$bindir/pg_ctl" -D "$primary" status >/dev/null 2>&1; then
        as_postgres "$bindir/pg_ctl" -D "$primary" -l "$dir/pg-primary.log" -w -t 60 start -o "-p $PRIMARY_PORT" >/dev/null
    fi
    psql_admin $PRIMARY_PORT postgres <<'SQL'
SELECT 'CREATE ROLE portal_owner LOGIN CREATEDB CREATEROLE' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_owner') \gexec
SELECT 'CREATE ROLE portal_app LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_app') \gexec
SELECT 'CREATE DATABASE portal OWNER portal_owner' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'portal') \gexec
SQL
    if [ ! -f "$replica/PG_VERSION" ]; then
        # A fast checkpoint to begin from: the default spreads it over minutes of a new cluster
        # (a minute and a half of the rehearsal's start), nothing to spare a replica made now.
        as_postgres "$bindir/pg_basebackup" -h 127.0.0.1 -p $PRIMARY_PORT -U postgres -D "$replica" -R -X stream \
            --checkpoint=fast -d "application_name=replica1" >/dev/null
        echo "port = $REPLICA_PORT" | as_postgres tee -a "$replica/conf.d.conf" >/dev/null
    fi
    if ! as_postgres "$bindir/pg_ctl" -D "$replica" status >/dev/null 2>&1; then
        as_postgres "$bindir/pg_ctl" -D "$replica" -l "$dir/pg-replica.log" -w -t 60 start -o "-p $REPLICA_PORT" >/dev/null
    fi
    # The replica streams: from now on the primary acknowledges a commit once it is on both.
    for _ in $(seq 100); do
        [ "$(psql_admin $PRIMARY_PORT postgres -At -c "SELECT count(*) FROM pg_stat_replication WHERE application_name = 'replica1'")" = 1 ] && break
        sleep 0.1
    done
    psql_admin $PRIMARY_PORT postgres -c "ALTER SYSTEM SET synchronous_standby_names = 'replica1'" -c "SELECT pg_reload_conf()" >/dev/null
}

start_pgbouncer() {
    local target=${1:-$PRIMARY_PORT}
    as_postgres mkdir -p "$dir/pgbouncer"
    sed -e "s|@PORT@|$BOUNCER_PORT|; s|@TARGET@|$target|; s|@DIR@|$dir/pgbouncer|g" "$root/deploy/pgbouncer.ini" \
        | as_postgres tee "$dir/pgbouncer/pgbouncer.ini" >/dev/null
    printf '"portal_app" ""\n"portal_owner" ""\n"postgres" ""\n' | as_postgres tee "$dir/pgbouncer/users.txt" >/dev/null
    alive "$dir/pgbouncer/pgbouncer.pid" || as_postgres /usr/sbin/pgbouncer -d "$dir/pgbouncer/pgbouncer.ini" >/dev/null
    wait_for_port $BOUNCER_PORT
}

start_redis() {
    mkdir -p "$dir/redis"
    for port in "${REDIS_PORTS[@]}"; do
        local replicaof=""
        [ "$port" != "${REDIS_PORTS[0]}" ] && replicaof="--replicaof 127.0.0.1 ${REDIS_PORTS[0]}"
        alive "$dir/redis/redis-$port.pid" || redis-server --bind 127.0.0.1 --port "$port" --appendonly yes --dir "$dir/redis" \
            --appendfilename "redis-$port.aof" --dbfilename "redis-$port.rdb" --daemonize yes --pidfile "$dir/redis/redis-$port.pid" \
            --logfile "$dir/redis/redis-$port.log" $replicaof >/dev/null
        wait_for_port "$port"
    done
    for port in "${SENTINEL_PORTS[@]}"; do
        if ! alive "$dir/redis/sentinel-$port.pid"; then
            sed -e "s|@PORT@|$port|; s|@MASTER@|${REDIS_PORTS[0]}|; s|@DIR@|$dir/redis|g" "$root/deploy/sentinel.conf" > "$dir/redis/sentinel-$port.conf"
            redis-sentinel "$dir/redis/sentinel-$port.conf" --daemonize yes --pidfile "$dir/redis/sentinel-$port.pid" \
                --logfile "$dir/redis/sentinel-$port.log" >/dev/null
        fi
        wait_for_port "$port"
    done
}

# The build the instances run: release, or CLUSTER_BUILD=debug for the one `make test` has just
# made (CI: the faults and the count of answers are the same either way; only the throughput
# figures are a debug build's).
build_mode=${CLUSTER_BUILD:-release}
binary() { echo "$(swift build -c "$build_mode" --show-bin-path)/portal"; }

start_portal() {
    local index=$1 port=${PORTAL_PORTS[$1]}
    mkdir -p "$dir/portal"
    alive "$dir/portal/portal-$index.pid" && return 0
    (set -a; eval "$(app_env)"; PORT=$port HOST=127.0.0.1; export PORT HOST; cd "$root"
     exec "$(binary)" serve >>"$dir/portal/portal-$index.log" 2>&1) &
    echo $! > "$dir/portal/portal-$index.pid"
    wait_for_port "$port"
}

start_haproxy() {
    mkdir -p "$dir/haproxy"
    sed -e "s|@PORT@|$PROXY_PORT|; s|@DIR@|$dir/haproxy|g; s|@P1@|${PORTAL_PORTS[0]}|; s|@P2@|${PORTAL_PORTS[1]}|; s|@P3@|${PORTAL_PORTS[2]}|" \
        "$root/deploy/haproxy.cfg" > "$dir/haproxy/haproxy.cfg"
    alive "$dir/haproxy/haproxy.pid" || /usr/sbin/haproxy -D -f "$dir/haproxy/haproxy.cfg" -p "$dir/haproxy/haproxy.pid"
    wait_for_port $PROXY_PORT
}

case "$command" in
start)
    # A rehearsal starts from nothing: what an earlier one left (a promoted replica, say) goes.
    if ! alive "$dir/haproxy/haproxy.pid"; then
        "$0" stop >/dev/null 2>&1 || true
        rm -rf "$dir"
        mkdir -p "$dir"
    fi
    began=$(date +%s)
    # Each step's seconds, as the rehearsal's budget is spent.
    step() { local now; now=$(date +%s); echo "   $1: $((now - began)) s"; began=$now; }
    scripts/deps.sh postgresql pgbouncer haproxy redis-server redis-sentinel >/dev/null
    step "packages"
    swift build -c "$build_mode" --explicit-target-dependency-import-check error >/dev/null
    step "build ($build_mode)"
    start_postgres
    step "PostgreSQL primary and replica"
    start_pgbouncer
    (set -a; eval "$(app_env)"; "$(binary)" migrate >"$dir/migrate.log" && "$(binary)" seed --if-empty >>"$dir/migrate.log")
    step "migrations and demo content"
    start_redis
    for index in 0 1 2; do start_portal $index; done
    start_haproxy
    step "Redis, Sentinels, three instances and HAProxy"
    app_env > "$dir/env"
    echo "The cluster is up: http://127.0.0.1:$PROXY_PORT (three instances behind HAProxy; deploy/cluster.sh stop stops it)"
    ;;
stop)
    stop_pid "$dir/haproxy/haproxy.pid"
    for index in 0 1 2; do stop_pid "$dir/portal/portal-$index.pid"; done
    for port in "${SENTINEL_PORTS[@]}"; do stop_pid "$dir/redis/sentinel-$port.pid"; done
    for port in "${REDIS_PORTS[@]}"; do stop_pid "$dir/redis/redis-$port.pid"; done
    stop_pid "$dir/pgbouncer/pgbouncer.pid"
    for cluster in "$replica" "$primary"; do
        if [ -f "$cluster/postmaster.pid" ]; then
            as_postgres "$bindir/pg_ctl" -D "$cluster" -m fast -w stop >/dev/null 2>&1 || true
        fi
    done
    echo "The cluster is stopped."
    ;;
status)
    for file in "$dir"/{haproxy,portal,redis,pgbouncer}/*.pid; do [ -f "$file" ] && echo "$(basename "$file" .pid): $(alive "$file" && echo running || echo stopped)"; done
    for cluster in "$primary" "$replica"; do
        echo "$(basename "$cluster"): $(as_postgres "$bindir/pg_ctl" -D "$cluster" status >/dev/null 2>&1 && echo running || echo stopped)"
    done
    ;;
kill-portal)
    kill -9 "$(cat "$dir/portal/portal-$2.pid")"
    rm -f "$dir/portal/portal-$2.pid"
    ;;
start-portal)
    start_portal "$2"
    ;;
restart-pgbouncer)
    stop_pid "$dir/pgbouncer/pgbouncer.pid"
    start_pgbouncer "${2:-$PRIMARY_PORT}"
    ;;
failover)
    # The primary goes away; the replica becomes the primary; PgBouncer follows it.
    as_postgres "$bindir/pg_ctl" -D "$primary" -m immediate -w stop >/dev/null
    as_postgres "$bindir/pg_ctl" -D "$replica" -w promote >/dev/null
    # A lone primary may not wait for a standby that is gone.
    psql_admin $REPLICA_PORT postgres -c "ALTER SYSTEM SET synchronous_standby_names = ''" -c "SELECT pg_reload_conf()" >/dev/null
    stop_pid "$dir/pgbouncer/pgbouncer.pid"
    start_pgbouncer $REPLICA_PORT
    ;;
redis-failover)
    # The Redis master dies; the Sentinels promote its replica (the portal asks them at connect).
    master=$(redis-cli -p "${SENTINEL_PORTS[0]}" SENTINEL get-master-addr-by-name portal | tail -n 1)
    for port in "${REDIS_PORTS[@]}"; do
        if [ "$port" = "$master" ]; then
            kill -9 "$(cat "$dir/redis/redis-$port.pid")"
            rm -f "$dir/redis/redis-$port.pid"
        fi
    done
    ;;
backup-drill)
    # A logical backup of the current primary, restored into a scratch database and compared
    # table by table: the drill deploy/README.md asks for after every backup change.
    port=$PRIMARY_PORT
    [ "$(psql_admin $PRIMARY_PORT postgres -At -c "SELECT pg_is_in_recovery()" 2>/dev/null)" = f ] || port=$REPLICA_PORT
    as_postgres mkdir -p "$dir/backup"
    as_postgres "$bindir/pg_dump" -h 127.0.0.1 -p "$port" -U postgres -Fc -f "$dir/backup/portal.dump" portal
    psql_admin "$port" postgres -c "DROP DATABASE IF EXISTS portal_restore_drill" -c "CREATE DATABASE portal_restore_drill OWNER portal_owner"
    # With row security on: the leaderboard view is refreshed as its owner, under its policies.
    as_postgres "$bindir/pg_restore" -h 127.0.0.1 -p "$port" -U postgres -d portal_restore_drill --enable-row-security --exit-on-error "$dir/backup/portal.dump"
    counts="SELECT string_agg(t || '=' || n, ' ' ORDER BY t) FROM (
        SELECT 'users' AS t, count(*) AS n FROM users UNION ALL SELECT 'questions', count(*) FROM questions
        UNION ALL SELECT 'study_sessions', count(*) FROM study_sessions UNION ALL SELECT 'answers', count(*) FROM answers
        UNION ALL SELECT 'live_answers', count(*) FROM live_answers) AS c"
    original=$(psql_admin "$port" portal -At -c "$counts")
    restored=$(psql_admin "$port" portal_restore_drill -At -c "$counts")
    psql_admin "$port" postgres -c "DROP DATABASE portal_restore_drill"
    echo "backup: $(du -h "$dir/backup/portal.dump" | cut -f1); live: $original; restored: $restored"
    [ "$original" = "$restored" ] || { echo "the restored copy differs" >&2; exit 1; }
    ;;
*)
    echo "usage: deploy/cluster.sh start|stop|status|kill-portal N|start-portal N|restart-pgbouncer|failover|redis-failover|backup-drill" >&2
    exit 2
    ;;
esac
