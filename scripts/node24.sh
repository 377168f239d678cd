#!/usr/bin/env bash
# Prints the bin folder of the newest Node 24 (the LTS line the registry runs on), fetched once per release with npm
# (the package node-linux-<arch> holds the binary) into a cache folder. CI puts it first on PATH:
#
#   export PATH="$(bash scripts/node24.sh):$PATH"
#
#   NODE_VERSION  a release to use instead of the newest 24.x
#   NODE_CACHE    where releases are kept (default ~/.cache/claimrights-registry/node)
set -euo pipefail
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node24: no Node package for $(uname -m)" >&2; exit 1 ;;
esac
package="node-linux-$arch"
cache=${NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/claimrights-registry/node}
mkdir -p "$cache"

version=${NODE_VERSION:-}
if [ -z "$version" ]; then
  # One version is printed as a string, several as a list.
  version=$(npm view "$package@24" version --json | tr -d '[]", ' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1)
  [ -n "$version" ] || { echo "node24: the registry has no $package@24" >&2; exit 1; }
fi

dir="$cache/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  echo "node24: fetching $package@$version" >&2
  fetch=$(mktemp -d "$cache/fetch.XXXXXX")
  # npm pack checks the tarball against the registry's integrity hash.
  (cd "$fetch" && npm pack --silent "$package@$version" >/dev/null) || { rm -rf "$fetch"; exit 1; }
  tar -xzf "$fetch/$package-$version.tgz" -C "$fetch"
  rm -rf "$dir"
  mv "$fetch/package" "$dir"
  rm -rf "$fetch"
fi
echo "$dir/bin"
