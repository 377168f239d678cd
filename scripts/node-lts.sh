#!/usr/bin/env bash
# Runs a command on the Node LTS line, beside this machine's own Node, which stays as it is:
#
#   bash scripts/node-lts.sh node --version
#   bash scripts/node-lts.sh npx vitest run test/config.test.ts
#   bash scripts/node-lts.sh npm test
#
# Node comes from the npm registry, through npm: the package node-linux-<arch> holds the binary (bin/node) and its
# headers (include/node). The command runs in a copy of the project (its files, refreshed on every run) whose
# node_modules were installed by that Node, better-sqlite3 compiled from source: each Node has a native module of
# its own, and the project's node_modules are never touched.
#
#   NODE_LTS_MAJOR    the line (default 24); its newest release runs the command
#   NODE_LTS_VERSION  a release to run instead of the newest
#   NODE_LTS_HEADERS  the release whose headers better-sqlite3 is compiled against (default 24.18.1, see below)
#   NODE_LTS_CACHE    where the Nodes and the copy are kept between runs (default ~/.cache/claimrights-registry/node-lts):
#                     a Node is fetched once per release, node_modules installed again only when a Node, package.json
#                     or package-lock.json changes
#
# Why older headers: from 24.19.0 on, the ObjectWrap of Node's headers (inline code, compiled into the addon) removes
# an environment cleanup hook in its destructor, and aborts the process when a garbage collection finalises such an
# object outside any context; better-sqlite3 12 wraps its statements so, and the suite aborts when it is compiled
# against 24.21.0's headers. Compiled against 24.18.1's it runs on every 24.x (one ABI per major line), the newest
# included. better-sqlite3 13 (Node-API) has no such code, but needs Node 22 or later and no longer runs on Node 20,
# which CI still tests; with it, NODE_LTS_HEADERS can go.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
major=${NODE_LTS_MAJOR:-24}
headers_version=${NODE_LTS_HEADERS:-24.18.1}
cache=${NODE_LTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry/node-lts}
if [ $# -eq 0 ]; then
  echo "usage: bash scripts/node-lts.sh <command> [arguments...]" >&2
  exit 2
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-lts: no Node package for $(uname -m)" >&2; exit 1 ;;
esac
package="node-linux-$arch"
mkdir -p "$cache"

version=${NODE_LTS_VERSION:-}
if [ -z "$version" ]; then
  # The newest release of the line (one version is printed as a string, several as a list).
  version=$(npm view "$package@$major" version --json | tr -d '[]", ' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1)
  if [ -z "$version" ]; then
    echo "node-lts: the registry has no $package@$major" >&2
    exit 1
  fi
fi

# Unpacks a release into the cache once (npm pack checks the tarball against the registry's integrity hash) and
# prints its folder.
fetch_node() {
  local release=$1 dir="$cache/node-$1" fetch
  if [ ! -x "$dir/bin/node" ]; then
    echo "node-lts: fetching $package@$release" >&2
    fetch=$(mktemp -d "$cache/fetch.XXXXXX")
    (cd "$fetch" && npm pack --silent "$package@$release" >/dev/null) || { rm -rf "$fetch"; return 1; }
    tar -xzf "$fetch/$package-$release.tgz" -C "$fetch"
    rm -rf "$dir"
    mv "$fetch/package" "$dir"
    rm -rf "$fetch"
  fi
  echo "$dir"
}
node_dir=$(fetch_node "$version")
headers_dir=$(fetch_node "$headers_version")
if [ "${version%%.*}" != "${headers_version%%.*}" ]; then
  echo "node-lts: Node $version cannot load an addon built for $headers_version (another major line)" >&2
  exit 1
fi

# The copy: the project's files as they are now (ignored ones left out), beside a link to ../shared, which the
# transcript test reads from beside the project.
work="$cache/project-$version"
tree="$work/project"
mkdir -p "$tree"
rsync -a --delete --exclude=/.git --exclude=/node_modules --filter=':- .gitignore' "$root/" "$tree/"
if [ -d "$root/../shared" ]; then ln -sfn "$(cd "$root/../shared" && pwd)" "$work/shared"; fi

export PATH="$node_dir/bin:$PATH"
# npm itself runs on this Node (its `node` is the first on PATH), so engines are checked against it; node-gyp
# compiles better-sqlite3 (whose install script package.json allows) with the headers of NODE_LTS_HEADERS. From
# source: prebuild-install reads npm_config_build_from_source and fetches no prebuilt binary (npm warns that it
# does not know the setting).
stamp="$version $headers_version $(sha256sum "$root/package.json" "$root/package-lock.json" | cut -d ' ' -f 1 | tr '\n' ' ')"
if [ "$(cat "$tree/node_modules/.node-lts-stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "node-lts: npm ci on Node $version, better-sqlite3 against the headers of $headers_version" >&2
  (
    cd "$tree"
    npm_config_nodedir="$headers_dir" npm_config_build_from_source=true npm ci --no-audit --no-fund >&2
  )
  echo "$stamp" >"$tree/node_modules/.node-lts-stamp"
fi

cd "$tree"
exec "$@"
