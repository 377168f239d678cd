#!/usr/bin/env bash
# A replicated engine on MongoDB's protocol, for the fault suite (scripts/faults/): FerretDB v2.5.0 on three
# PostgreSQL 15 nodes with DocumentDB (the engine scripts/ferretdb.sh builds), replicated by Patroni in synchronous
# mode with etcd as its store; FerretDB reaches the primary through HAProxy, which asks each node's Patroni REST API
# (`GET /primary`) every second, as Patroni's users run it.
#
#   scripts/replicated-engine.sh start [BASE]         start everything; print MONGODB_URI=... (BASE default 27300)
#   scripts/replicated-engine.sh stop [BASE]          stop everything, remove its data
#   scripts/replicated-engine.sh primary [BASE]       print the primary's name (pg1, pg2, pg3)
#   scripts/replicated-engine.sh kill-primary [BASE]  kill -9 the primary's PostgreSQL (its postmaster); print its name
#
# Ports: FerretDB BASE, HAProxy BASE+1, etcd BASE+2 (clients) and BASE+3 (peers); PostgreSQL BASE-12000+1..3, the
# Patroni REST APIs BASE-12000+11..13 (27300 → 15301…15303, 15311…15313). Debian packages: patroni, etcd-server,
# haproxy (installed when missing, as root). Heavy on a small machine: start it only while it is used.
#
# Synchronous mode: a commit is acknowledged only once the synchronous standby has it, and Patroni promotes only
# that standby. primary_start_timeout 0: a primary whose PostgreSQL crashed is failed over at once, not restarted.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN_ROOT="${REPLICATED_RUN_DIR:-${TMPDIR:-/tmp}/claimrights-replicated}"
PG_LIB=/usr/lib/postgresql/15

log() { echo "replicated-engine.sh: $*" >&2; }
fail() { log "$*"; exit 1; }

port_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

install_missing() {
  local need=() pkg
  for pkg in patroni etcd-server haproxy python3-etcd; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
  done
  [ ${#need[@]} -eq 0 ] && return
  [ "$(id -u)" -eq 0 ] || fail "missing Debian packages (install them as root): ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

ports() {
  BASE="${1:-27300}"
  FERRET_PORT=$BASE
  HAPROXY_PORT=$((BASE + 1))
  ETCD_PORT=$((BASE + 2))
  ETCD_PEER_PORT=$((BASE + 3))
  PG_BASE=$((BASE - 12000))
  DIR="$RUN_ROOT/$BASE"
}

patroni_config() {
  local i=$1 name="pg$1" pg_port=$((PG_BASE + $1)) rest_port=$((PG_BASE + 10 + $1))
  cat <<EOF
scope: registry
name: $name
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:$rest_port
  connect_address: 127.0.0.1:$rest_port
etcd:
  host: 127.0.0.1:$ETCD_PORT
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    primary_start_timeout: 0
    master_start_timeout: 0
    postgresql:
      use_pg_rewind: true
      parameters:
        shared_preload_libraries: pg_cron,pg_documentdb_core,pg_documentdb
        cron.database_name: postgres
        max_connections: 200
        shared_buffers: 128MB
        wal_log_hints: 'on'
        documentdb.useFileBasedPersistedCursors: 'on'
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
  post_bootstrap: $DIR/post-bootstrap.sh
postgresql:
  listen: 127.0.0.1:$pg_port
  connect_address: 127.0.0.1:$pg_port
  data_dir: $DIR/$name/data
  bin_dir: $DIR/pg$PG_LIB/bin
  pgpass: $DIR/$name/pgpass
  # A replica's copy starts at once, not after a spread checkpoint (minutes).
  basebackup:
    - checkpoint: fast
  authentication:
    replication:
      username: replicator
      password: replicator
    superuser:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: '$DIR/$name'
EOF
}

haproxy_config() {
  cat <<EOF
global
    maxconn 1000
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
listen primary
    bind 127.0.0.1:$HAPROXY_PORT
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
EOF
  local i
  for i in 1 2 3; do
    echo "    server pg$i 127.0.0.1:$((PG_BASE + i)) check port $((PG_BASE + 10 + i))"
  done
}

primary() {
  local i
  for i in 1 2 3; do
    if curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((PG_BASE + 10 + i))/primary" 2>/dev/null | grep -q 200; then
      echo "pg$i"; return 0
    fi
  done
  return 1
}

start() {
  ports "$@"
  install_missing
  local engine i
  engine="$(bash "$HERE/ferretdb.sh" build)"
  if [ -f "$DIR/ferretdb.pid" ] && kill -0 "$(cat "$DIR/ferretdb.pid")" 2>/dev/null; then
    echo "MONGODB_URI=mongodb://127.0.0.1:$FERRET_PORT/registry"; return
  fi
  for port in $FERRET_PORT $HAPROXY_PORT $ETCD_PORT $ETCD_PEER_PORT; do
    port_answers "$port" && fail "port $port is taken"
  done
  id postgres >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
  rm -rf "$DIR"
  mkdir -p "$DIR"
  chmod 755 "$RUN_ROOT" "$DIR"
  cp -al "$engine/pg" "$DIR/pg" 2>/dev/null || { rm -rf "$DIR/pg"; cp -a "$engine/pg" "$DIR/pg"; }
  cp -l "$engine/bin/ferretdb" "$DIR/ferretdb" 2>/dev/null || cp "$engine/bin/ferretdb" "$DIR/ferretdb"
  cat >"$DIR/post-bootstrap.sh" <<EOF
#!/bin/sh
exec "$DIR/pg$PG_LIB/bin/psql" "\$1" -v ON_ERROR_STOP=1 -q -c 'CREATE EXTENSION documentdb CASCADE'
EOF
  chmod 755 "$DIR/post-bootstrap.sh"

  nohup etcd --name e1 --data-dir "$DIR/etcd" --enable-v2=true \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "e1=http://127.0.0.1:$ETCD_PEER_PORT" >"$DIR/etcd.log" 2>&1 </dev/null &
  echo $! >"$DIR/etcd.pid"
  for i in $(seq 1 100); do port_answers "$ETCD_PORT" && break; sleep 0.1; done

  for i in 1 2 3; do
    mkdir -p "$DIR/pg$i"
    patroni_config "$i" >"$DIR/pg$i/patroni.yml"
    chown -R postgres "$DIR/pg$i"
    chmod 700 "$DIR/pg$i"
    runuser -u postgres -- nohup patroni "$DIR/pg$i/patroni.yml" >"$DIR/pg$i/patroni.log" 2>&1 </dev/null &
    echo $! >"$DIR/pg$i/patroni.pid"
    # The first one bootstraps the cluster; the others copy it.
    if [ "$i" -eq 1 ]; then
      for _ in $(seq 1 600); do primary >/dev/null && break; sleep 0.2; done
      primary >/dev/null || { tail -30 "$DIR/pg1/patroni.log" >&2; stop "$BASE"; fail "no primary after 120 s"; }
    fi
  done
  # Synchronous mode names a standby once one streams: wait for it, and for the third to stream too.
  for _ in $(seq 1 900); do
    [ "$(curl -s "http://127.0.0.1:$((PG_BASE + 11))/cluster" | grep -o '"state": *"\(running\|streaming\)"' | wc -l)" -eq 3 ] \
      && curl -s "http://127.0.0.1:$((PG_BASE + 11))/cluster" | grep -q '"role": *"sync_standby"' && break
    sleep 0.2
  done
  curl -s "http://127.0.0.1:$((PG_BASE + 11))/cluster" | grep -q '"role": *"sync_standby"' \
    || { stop "$BASE"; fail "no synchronous standby after 180 s"; }
  haproxy_config >"$DIR/haproxy.cfg"
  haproxy -f "$DIR/haproxy.cfg" -D -p "$DIR/haproxy.pid"
  DO_NOT_TRACK=1 nohup "$DIR/ferretdb" --listen-addr="127.0.0.1:$FERRET_PORT" \
    --postgresql-url="postgres://postgres@127.0.0.1:$HAPROXY_PORT/postgres" \
    --no-auth --telemetry=disable --debug-addr=- --state-dir="$DIR" --log-level=warn \
    >"$DIR/ferretdb.log" 2>&1 </dev/null &
  echo $! >"$DIR/ferretdb.pid"
  for _ in $(seq 1 300); do port_answers "$FERRET_PORT" && break; sleep 0.1; done
  port_answers "$FERRET_PORT" || { cat "$DIR/ferretdb.log" >&2; stop "$BASE"; fail "FerretDB did not start"; }
  log "primary $(primary), FerretDB on $FERRET_PORT via HAProxy $HAPROXY_PORT, files in $DIR"
  echo "MONGODB_URI=mongodb://127.0.0.1:$FERRET_PORT/registry"
}

kill_primary() {
  ports "$@"
  local name
  name="$(primary)" || fail "no primary"
  kill -9 "$(head -n 1 "$DIR/$name/data/postmaster.pid")"
  echo "$name"
}

stop_pidfile() {
  local pid
  [ -f "$1" ] || return 0
  pid="$(head -n 1 "$1")"
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  ports "$@"
  [ -d "$DIR" ] || { log "not running on $BASE"; return 0; }
  local i
  stop_pidfile "$DIR/ferretdb.pid"
  stop_pidfile "$DIR/haproxy.pid"
  for i in 1 2 3; do stop_pidfile "$DIR/pg$i/patroni.pid"; done
  for i in 1 2 3; do
    [ -f "$DIR/pg$i/data/postmaster.pid" ] && kill -9 "$(head -n 1 "$DIR/pg$i/data/postmaster.pid")" 2>/dev/null || true
  done
  stop_pidfile "$DIR/etcd.pid"
  rm -rf "$DIR"
  log "stopped on $BASE"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  primary) shift; ports "$@"; primary ;;
  kill-primary) shift; kill_primary "$@" ;;
  *) echo "usage: $0 start|stop|primary|kill-primary [BASE]" >&2; exit 2 ;;
esac
