#!/usr/bin/env bash
# A MongoDB-wire server for the tests: FerretDB v1.24.2 (SQLite backend), built with Go and cached.
#
#   scripts/ferretdb.sh build          build (or reuse) the cached binary and print its path
#   scripts/ferretdb.sh start [PORT]   build if needed, start on 127.0.0.1:PORT (default 27018) in the
#                                      background, wait until it answers, print MONGODB_URI=...
#   scripts/ferretdb.sh stop [PORT]    stop the server started by `start` on that port, remove its data
#
# MongoDB itself cannot be installed on the CI machines; FerretDB speaks its wire protocol. It is built from
# a throwaway module (built inside FerretDB's own module the binary panics at start for a missing
# version.txt). The binary is cached in ${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry/ferretdb-1.24.2,
# so only the first run on a machine builds (about 1-3 minutes with a cold Go cache).
# Telemetry is off (--telemetry=disable, DO_NOT_TRACK=1) and so is the debug listener (--debug-addr=-).
#
# Typical use (CI):
#   eval "$(scripts/ferretdb.sh start)"      # sets MONGODB_URI
#   npm test
#   scripts/ferretdb.sh stop
set -euo pipefail

VERSION=1.24.2
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry"
BIN="$CACHE_DIR/ferretdb-$VERSION"
RUN_DIR="${FERRETDB_RUN_DIR:-${TMPDIR:-/tmp}/claimrights-ferretdb}"

log() { echo "ferretdb.sh: $*" >&2; }

find_go() {
  if command -v go >/dev/null 2>&1; then command -v go; return; fi
  if [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go; return; fi
  log "Go is needed to build FerretDB (not on PATH, not in /usr/local/go)"; exit 1
}

build() {
  if [ -x "$BIN" ] && "$BIN" --version >/dev/null 2>&1; then
    echo "$BIN"; return
  fi
  local go work started
  go="$(find_go)"
  mkdir -p "$CACHE_DIR"
  work="$(mktemp -d)"
  started=$(date +%s)
  log "building FerretDB v$VERSION with $("$go" version) in $work (first run only)"
  (
    cd "$work"
    export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-}"
    "$go" mod init tmp >/dev/null 2>&1
    if ! "$go" get "github.com/FerretDB/FerretDB/cmd/ferretdb@v$VERSION" >get.log 2>&1; then
      # The checksum database may be unreachable from here: fall back to the module proxy alone.
      cat get.log >&2
      log "go get failed; retrying with GOSUMDB=off GOFLAGS=-mod=mod"
      export GOSUMDB=off GOFLAGS=-mod=mod
      "$go" get "github.com/FerretDB/FerretDB/cmd/ferretdb@v$VERSION" >get.log 2>&1 || { cat get.log >&2; exit 1; }
    fi
    # Go >= 1.24 reports the module of the built main package as the main module, and FerretDB then insists
    # on an embedded build/version/version.txt, which its published module does not carry (it panics at
    # start). Build from a writable copy of the module that has the file, through a replace directive.
    local src
    src="$("$go" list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB)"
    cp -r "$src" ferretdb-src
    chmod -R u+w ferretdb-src
    echo "v$VERSION" >ferretdb-src/build/version/version.txt
    echo "release" >ferretdb-src/build/version/package.txt
    "$go" mod edit -replace github.com/FerretDB/FerretDB=./ferretdb-src
    "$go" build -trimpath -o "$BIN.tmp.$$" github.com/FerretDB/FerretDB/cmd/ferretdb >&2
  )
  mv -f "$BIN.tmp.$$" "$BIN"
  rm -rf "$work"
  log "built $BIN in $(( $(date +%s) - started ))s"
  echo "$BIN"
}

port_answers() {
  # bash's /dev/tcp: no extra tools needed.
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
  local port="${1:-${FERRETDB_PORT:-27018}}" bin dir pidfile
  bin="$(build)"
  dir="$RUN_DIR/$port"
  pidfile="$dir/ferretdb.pid"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    log "already running (pid $(cat "$pidfile")) on port $port"
  else
    if port_answers "$port"; then log "port $port is taken by something else"; exit 1; fi
    rm -rf "$dir"
    mkdir -p "$dir/data"
    DO_NOT_TRACK=1 nohup "$bin" \
      --listen-addr="127.0.0.1:$port" \
      --handler=sqlite \
      --sqlite-url="file:$dir/data/" \
      --telemetry=disable \
      --debug-addr=- \
      --state-dir="$dir" \
      --log-level=warn \
      >"$dir/ferretdb.log" 2>&1 </dev/null &
    echo $! >"$pidfile"
    local i
    for i in $(seq 1 150); do
      if port_answers "$port"; then break; fi
      if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
        log "FerretDB exited at start:"; cat "$dir/ferretdb.log" >&2; exit 1
      fi
      sleep 0.1
    done
    port_answers "$port" || { log "FerretDB did not answer on port $port"; cat "$dir/ferretdb.log" >&2; exit 1; }
    log "FerretDB v$VERSION running, pid $(cat "$pidfile"), port $port, data in $dir, log $dir/ferretdb.log"
  fi
  echo "MONGODB_URI=mongodb://127.0.0.1:$port/registry"
}

stop() {
  local port="${1:-${FERRETDB_PORT:-27018}}" dir pidfile pid i
  dir="$RUN_DIR/$port"
  pidfile="$dir/ferretdb.pid"
  if [ ! -f "$pidfile" ]; then log "not running on port $port"; return 0; fi
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  rm -rf "$dir"
  log "stopped (pid $pid)"
}

case "${1:-}" in
  build) build ;;
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 build | start [PORT] | stop [PORT]" >&2; exit 2 ;;
esac
