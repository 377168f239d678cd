#!/usr/bin/env bash
# A MongoDB-wire server for the tests and the benchmark: FerretDB v2.5.0 on PostgreSQL 15 with the DocumentDB
# extension (the engine behind Azure Cosmos DB for MongoDB vCore), whose `find` uses indexes (RUM: each key of a
# compound index matched on its own, a range then sorted in memory).
#
#   scripts/ferretdb.sh build          build (or reuse) the cached engine and print its folder
#   scripts/ferretdb.sh start [PORT]   build if needed, start PostgreSQL and FerretDB on 127.0.0.1:PORT (default
#                                      27017) in the background, wait until it answers, print MONGODB_URI=...
#   scripts/ferretdb.sh stop [PORT]    stop what `start` started on that port, remove its data
#
# MongoDB itself cannot be installed on the CI machines. What `build` does, once per machine:
#   - installs the Debian packages it needs when missing (PostgreSQL 15 and its server headers, PostGIS, RUM,
#     libbson, PCRE2, Intel's decimal library, a C toolchain);
#   - checks the vendored sources (vendor/mongodb-engine/: DocumentDB, pg_cron, pgvector; no reachable package
#     registry serves them) against SHA256SUMS, and builds them (see vendor/mongodb-engine/README.md for why
#     each flag is there);
#   - builds FerretDB v2.5.0 from the Go module proxy;
#   - puts everything in ${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry/ferretdb-2.5.0/: a private copy of
#     the system's PostgreSQL 15 tree with the extensions installed into it (PostgreSQL 15 finds extensions only
#     in its own tree; the system's tree and its PostgreSQL on 5432 are left untouched), and the FerretDB binary.
# `start` then takes seconds: a fresh PostgreSQL cluster (initdb, as the `postgres` system user when run as root,
# since PostgreSQL refuses root) on 127.0.0.1:PG_PORT (default PORT+10000), `CREATE EXTENSION documentdb CASCADE`,
# and FerretDB on 127.0.0.1:PORT. Durability is off (fsync, synchronous_commit): the data is thrown away at
# `stop`; FERRETDB_DURABLE=1 keeps PostgreSQL's defaults. Telemetry is off (--telemetry=disable, DO_NOT_TRACK=1)
# and so is the debug listener (--debug-addr=-).
#
# Typical use (CI):
#   eval "$(scripts/ferretdb.sh start)"      # sets MONGODB_URI
#   npm test
#   scripts/ferretdb.sh stop
set -euo pipefail

VERSION=2.5.0
PG_MAJOR=15
SYSTEM_PG_LIB=/usr/lib/postgresql/$PG_MAJOR
SYSTEM_PG_SHARE=/usr/share/postgresql/$PG_MAJOR
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENDOR_DIR="${FERRETDB_VENDOR_DIR:-$HERE/../vendor/mongodb-engine}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry"
ENGINE="$CACHE_DIR/ferretdb-$VERSION"
RUN_DIR="${FERRETDB_RUN_DIR:-${TMPDIR:-/tmp}/claimrights-ferretdb2}"
PACKAGES=(
  postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR postgresql-$PG_MAJOR-postgis-3 postgresql-$PG_MAJOR-rum
  libbson-dev libpcre2-dev libintelrdfpmath-dev libicu-dev libkrb5-dev systemtap-sdt-dev pkg-config
  build-essential
)

log() { echo "ferretdb.sh: $*" >&2; }
fail() { log "$*"; exit 1; }

# Runs a build step with its output in $BUILD_LOG, shown (its end) only when the step fails.
quietly() {
  "$@" >>"$BUILD_LOG" 2>&1 || { tail -n 60 "$BUILD_LOG" >&2; fail "failed: $* (whole log: $BUILD_LOG)"; }
}

find_go() {
  if command -v go >/dev/null 2>&1; then command -v go; return; fi
  if [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go; return; fi
  fail "Go is needed to build FerretDB (not on PATH, not in /usr/local/go)"
}

install_missing_packages() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  [ "$(id -u)" -eq 0 ] || fail "missing Debian packages (install them as root): ${missing[*]}"
  log "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The Intel decimal library is packaged without the pkg-config file DocumentDB looks for.
write_intelmathlib_pc() {
  mkdir -p "$1"
  cat >"$1/intelmathlib.pc" <<EOF
Name: intelmathlib
Description: Intel Decimal Floating-Point Math Library (Debian's libintelrdfpmath-dev)
Version: 2.0
Cflags: -I/usr/include -DCALL_BY_REF=0 -DGLOBAL_RND=0 -DGLOBAL_FLAGS=0
Libs: /usr/lib/$(gcc -print-multiarch)/libbidgcc000.a
EOF
}

build_extensions() {
  local work="$1" stage="$2" jobs
  jobs="$(nproc)"
  (cd "$VENDOR_DIR" && sha256sum --quiet -c SHA256SUMS) || fail "vendored sources do not match SHA256SUMS"
  mkdir -p "$work/src"
  local tarball
  for tarball in "$VENDOR_DIR"/*.tgz; do tar -xzf "$tarball" -C "$work/src"; done
  write_intelmathlib_pc "$work/pkgconfig"
  export PKG_CONFIG_PATH="$work/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  # No JIT bitcode (with_llvm=no), no -march=native (pgvector's OPTFLAGS): the build must run anywhere.
  quietly make -C "$work/src/pg_cron" -j"$jobs" with_llvm=no install DESTDIR="$stage"
  quietly make -C "$work/src/pgvector" -j"$jobs" with_llvm=no OPTFLAGS='' install DESTDIR="$stage"
  # Debian's libbson 1.23 lacks one constant DocumentDB 0.106 uses (added in 1.28). pg_documentdb links to
  # pg_documentdb_core.so by an rpath naming the system's library folder; $ORIGIN finds it in the private tree.
  local documentdb_make=(with_llvm=no COPT='-DBSON_SUBTYPE_SENSITIVE=0x08 -Wno-error=switch'
    LDFLAGS_SL='-Wl,-rpath,\$$ORIGIN' DESTDIR="$stage")
  quietly make -C "$work/src/documentdb/pg_documentdb_core" -j"$jobs" "${documentdb_make[@]}" install
  quietly make -C "$work/src/documentdb/pg_documentdb" -j"$jobs" "${documentdb_make[@]}" install
}

build_ferretdb() {
  local work="$1" out="$2" go src
  go="$(find_go)"
  mkdir -p "$work/go"
  (
    cd "$work/go"
    export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-}"
    "$go" mod init tmp >/dev/null 2>&1
    if ! "$go" get "github.com/FerretDB/FerretDB/v2/cmd/ferretdb@v$VERSION" >get.log 2>&1; then
      # The checksum database may be unreachable from here: fall back to the module proxy alone.
      cat get.log >&2
      log "go get failed; retrying with GOSUMDB=off GOFLAGS=-mod=mod"
      export GOSUMDB=off GOFLAGS=-mod=mod
      "$go" get "github.com/FerretDB/FerretDB/v2/cmd/ferretdb@v$VERSION" >get.log 2>&1 || { cat get.log >&2; exit 1; }
    fi
    # Built inside a writable copy of FerretDB's own module (its go.sum), which needs build/version/*.txt, and,
    # on Go 1.25 or later, the setGOMAXPROCS that v2.5.0 defines only for older Go (the runtime does it itself).
    src="$("$go" list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB/v2)"
    cp -r "$src" ferretdb-src
    chmod -R u+w ferretdb-src
    cd ferretdb-src
    echo "v$VERSION" >build/version/version.txt
    echo "release" >build/version/package.txt
    if ! grep -rqs --include='*.go' '^//go:build go1.25' cmd/ferretdb; then
      printf '//go:build go1.25\n\npackage main\n\n// setGOMAXPROCS: since Go 1.25 the runtime follows the CPU quota itself.\nfunc setGOMAXPROCS(_ any) {}\n' \
        >cmd/ferretdb/gomaxprocs_go125.go
    fi
    quietly "$go" build -trimpath -o "$out" ./cmd/ferretdb
  )
}

build() {
  if [ -x "$ENGINE/bin/ferretdb" ] && [ -x "$ENGINE/pg$SYSTEM_PG_LIB/bin/postgres" ]; then
    echo "$ENGINE"; return
  fi
  install_missing_packages
  local work started
  mkdir -p "$CACHE_DIR"
  work="$(mktemp -d)"
  BUILD_LOG="$work/build.log"
  started=$(date +%s)
  log "building DocumentDB, pg_cron, pgvector and FerretDB v$VERSION in $work (first run only)"
  mkdir -p "$work/engine/bin" "$work/engine/pg${SYSTEM_PG_LIB%/*}" "$work/engine/pg${SYSTEM_PG_SHARE%/*}"
  cp -a "$SYSTEM_PG_LIB" "$work/engine/pg${SYSTEM_PG_LIB%/*}/"
  cp -a "$SYSTEM_PG_SHARE" "$work/engine/pg${SYSTEM_PG_SHARE%/*}/"
  build_extensions "$work" "$work/engine/pg"
  log "extensions built in $(( $(date +%s) - started ))s"
  build_ferretdb "$work" "$work/engine/bin/ferretdb"
  rm -rf "$ENGINE"
  mv "$work/engine" "$ENGINE"
  cp "$BUILD_LOG" "$ENGINE/build.log"
  rm -rf "$work"
  log "built $ENGINE in $(( $(date +%s) - started ))s"
  echo "$ENGINE"
}

port_answers() {
  # bash's /dev/tcp: no extra tools needed.
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# PostgreSQL refuses to run as root: as root, its cluster belongs to the `postgres` system user (made when
# missing).
pg_user() {
  if [ "$(id -u)" -ne 0 ]; then id -un; return; fi
  id postgres >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
  echo postgres
}

as_pg_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$(pg_user)" -- "$@"; else "$@"; fi
}

# Whether the process in pidfile $1 is alive and runs the executable $2 (so that a pid reused by another
# program is never signalled).
runs() {
  local pid
  [ -f "$1" ] || return 1
  pid="$(head -n 1 "$1")"
  [ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$2" ]
}

start() {
  local port="${1:-${FERRETDB_PORT:-27017}}" engine dir pg_port pg_bin user i
  engine="$(build)"
  dir="$RUN_DIR/$port"
  if runs "$dir/ferretdb.pid" "$dir/ferretdb"; then
    log "already running (pid $(cat "$dir/ferretdb.pid")) on port $port"
    echo "MONGODB_URI=mongodb://127.0.0.1:$port/registry"
    return
  fi
  [ -d "$dir" ] && stop "$port" >/dev/null 2>&1
  pg_port="${FERRETDB_PG_PORT:-$((port + 10000))}"
  port_answers "$port" && fail "port $port is taken by something else"
  port_answers "$pg_port" && fail "port $pg_port (for PostgreSQL; FERRETDB_PG_PORT) is taken by something else"
  user="$(pg_user)"
  mkdir -p "$RUN_DIR" "$dir"
  chmod 755 "$RUN_DIR" "$dir"
  # The cache may sit in a folder the PostgreSQL user cannot enter (root's home): run from a copy in $dir,
  # hard-linked when on the same file system.
  cp -al "$engine/pg" "$dir/pg" 2>/dev/null || { rm -rf "$dir/pg"; cp -a "$engine/pg" "$dir/pg"; }
  cp -l "$engine/bin/ferretdb" "$dir/ferretdb" 2>/dev/null || cp "$engine/bin/ferretdb" "$dir/ferretdb"
  pg_bin="$dir/pg$SYSTEM_PG_LIB/bin"
  mkdir -p "$dir/data"
  chown "$user" "$dir/data"
  chmod 700 "$dir/data"
  as_pg_user "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
    --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; fail "initdb failed"; }
  {
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $pg_port"
    echo "unix_socket_directories = ''"
    echo "shared_preload_libraries = 'pg_cron,pg_documentdb_core,pg_documentdb'"
    echo "cron.database_name = 'postgres'"
    echo "max_connections = 200"
    echo "shared_buffers = 256MB"
    # A sorted find's cursor kept in a file, not on its connection: otherwise FerretDB takes that connection out of
    # its pool and closes it once the cursor is drained, so each sorted find (a listing page, a history page) makes
    # the next command wait for a new PostgreSQL connection (docs/performance-mongodb.md).
    echo "documentdb.useFileBasedPersistedCursors = on"
    if [ "${FERRETDB_DURABLE:-0}" != 1 ]; then
      echo "fsync = off"
      echo "synchronous_commit = off"
      echo "full_page_writes = off"
    fi
  } >>"$dir/data/postgresql.conf"
  as_pg_user "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/data/postgresql.log" -w -t 60 start >/dev/null \
    || { cat "$dir/data/postgresql.log" >&2; fail "PostgreSQL did not start"; }
  head -n 1 "$dir/data/postmaster.pid" >"$dir/postgres.pid"
  as_pg_user "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
    -c 'CREATE EXTENSION documentdb CASCADE' >"$dir/extension.log" 2>&1 \
    || { cat "$dir/extension.log" >&2; stop "$port"; fail "CREATE EXTENSION documentdb failed"; }
  # PostgreSQL backends under DocumentDB grew to 1.5-2.2 GB each over the suite: in one rehearsal 63 of them held
  # 23.6 GB, the kernel killed one, and the engine's recovery failed the tests in flight. FerretDB's pool (pgx)
  # replaces a connection once it is a minute old, which gives its backend's memory back.
  DO_NOT_TRACK=1 nohup "$dir/ferretdb" \
    --listen-addr="127.0.0.1:$port" \
    --postgresql-url="postgres://postgres@127.0.0.1:$pg_port/postgres?pool_max_conn_lifetime=60s" \
    --no-auth \
    --telemetry=disable \
    --debug-addr=- \
    --state-dir="$dir" \
    --log-level=warn \
    >"$dir/ferretdb.log" 2>&1 </dev/null &
  echo $! >"$dir/ferretdb.pid"
  for i in $(seq 1 300); do
    if port_answers "$port"; then break; fi
    if ! runs "$dir/ferretdb.pid" "$dir/ferretdb"; then
      cat "$dir/ferretdb.log" >&2; stop "$port"; fail "FerretDB exited at start"
    fi
    sleep 0.1
  done
  port_answers "$port" || { cat "$dir/ferretdb.log" >&2; stop "$port"; fail "FerretDB did not answer on port $port"; }
  log "FerretDB v$VERSION on DocumentDB running on port $port (pid $(cat "$dir/ferretdb.pid")), PostgreSQL on" \
    "port $pg_port (pid $(cat "$dir/postgres.pid")), files in $dir"
  echo "MONGODB_URI=mongodb://127.0.0.1:$port/registry"
}

stop_pid() {
  local pid i
  pid="$(head -n 1 "$1")"
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  local port="${1:-${FERRETDB_PORT:-27017}}" dir stopped=()
  dir="$RUN_DIR/$port"
  if [ ! -d "$dir" ]; then log "not running on port $port"; return 0; fi
  if runs "$dir/ferretdb.pid" "$dir/ferretdb"; then
    stop_pid "$dir/ferretdb.pid"; stopped+=("FerretDB pid $(cat "$dir/ferretdb.pid")")
  fi
  if runs "$dir/postgres.pid" "$dir/pg$SYSTEM_PG_LIB/bin/postgres"; then
    # SIGINT is PostgreSQL's fast shutdown.
    kill -INT "$(cat "$dir/postgres.pid")" 2>/dev/null || true
    local i
    for i in $(seq 1 100); do runs "$dir/postgres.pid" "$dir/pg$SYSTEM_PG_LIB/bin/postgres" || break; sleep 0.1; done
    runs "$dir/postgres.pid" "$dir/pg$SYSTEM_PG_LIB/bin/postgres" && kill -9 "$(cat "$dir/postgres.pid")"
    stopped+=("PostgreSQL pid $(cat "$dir/postgres.pid")")
  fi
  rm -rf "$dir"
  log "stopped on port $port: ${stopped[*]:-nothing was running}"
}

case "${1:-}" in
  build) build ;;
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 build | start [PORT] | stop [PORT]" >&2; exit 2 ;;
esac
