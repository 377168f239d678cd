#!/usr/bin/env bash
# Toxiproxy (a TCP proxy that injects latency, resets and cuts) for the fault suite (scripts/faults/), built with Go
# from the Go module proxy once per machine into the cache, beside the FerretDB engine.
#
#   scripts/toxiproxy.sh build     build (or reuse) the server and print its path
set -euo pipefail

VERSION=2.5.0
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry"
BINARY="$CACHE_DIR/toxiproxy-$VERSION/toxiproxy-server"

log() { echo "toxiproxy.sh: $*" >&2; }

find_go() {
  if command -v go >/dev/null 2>&1; then command -v go; return; fi
  if [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go; return; fi
  log "Go is needed to build Toxiproxy (not on PATH, not in /usr/local/go)"; exit 1
}

build() {
  if [ -x "$BINARY" ]; then echo "$BINARY"; return; fi
  local go work
  go="$(find_go)"
  work="$(mktemp -d)"
  log "building Toxiproxy v$VERSION (first run only)"
  (
    cd "$work"
    export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOBIN="$work/bin" GOPATH="$work/gopath" GOFLAGS=-modcacherw
    if ! "$go" install "github.com/Shopify/toxiproxy/v2/cmd/server@v$VERSION" >"$work/build.log" 2>&1; then
      # The checksum database may be unreachable from here: the module proxy alone.
      GOSUMDB=off "$go" install "github.com/Shopify/toxiproxy/v2/cmd/server@v$VERSION" >>"$work/build.log" 2>&1 \
        || { cat "$work/build.log" >&2; exit 1; }
    fi
  )
  mkdir -p "$(dirname "$BINARY")"
  mv "$work/bin/server" "$BINARY"
  rm -rf "$work"
  echo "$BINARY"
}

case "${1:-}" in
  build) build ;;
  *) echo "usage: $0 build" >&2; exit 2 ;;
esac
