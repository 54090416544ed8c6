#!/usr/bin/env bash
# CI step: a new user's first hour on a plain node:22-slim (plus curl; .ci/fresh-machine.Dockerfile), as the image's
# unprivileged `node` user with no added capabilities and no apt at run time. .ci/fresh-machine-steps.sh runs inside:
#   1. `npm ci` (no compiler: better-sqlite3, optional, fails to build and is dropped; Node 22 uses node:sqlite);
#   2. `npm start -- --timing fast` and the README's "Try it in two minutes" block, as written: a generation completes
#      and its MP4 downloads, with the ffmpeg and ffprobe that npm brought;
#   3. `npm pack`, installed into a consumer project, which runs its CLI and completes a generation through its library;
#   4. `npm test`.
# Prints each step's time; exits with the first failing step's status. Needs root and ../shared/tools/container-engine.sh
# (podman). FRESH_TIMEOUT_S bounds the container run (default 1500); FRESH_VITEST_ARGS are added to vitest's arguments.
# Usage: .ci/fresh-machine.sh [--image-only]
set -euo pipefail
cd "$(dirname "$0")/.."
CE=$(cd .. && pwd)/shared/tools/container-engine.sh
[ -x "$CE" ] || { echo "fresh machine: $CE is missing (it comes with shared/)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "fresh machine: container-engine.sh needs root" >&2; exit 2; }
image=localhost/media-gen-emulator-fresh-machine:ci
name=media-gen-fresh-machine-$$
limit=${FRESH_TIMEOUT_S:-1500}
start=$(date +%s)
say() { printf '[fresh machine +%ss] %s\n' "$(($(date +%s) - start))" "$*"; }

"$CE" setup >/dev/null
say "image: node:22-slim + curl"
timeout 600 "$CE" build .ci "$image" -f .ci/fresh-machine.Dockerfile >/dev/null
# --image-only: CI builds the image early, beside the CPU-bound steps (it is mostly apt downloads), and runs it later.
[ "${1:-}" != --image-only ] || { say "image ready"; exit 0; }
# A hang must not outlive the limit: `timeout` ends the client, and this removes the container itself.
trap '"$CE" podman rm -f "$name" >/dev/null 2>&1 || true' EXIT

say "copy the checkout (tracked and new files: no node_modules, dist or local state), then run it as the node user"
set +e
git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null |
  timeout --kill-after=30 "$limit" "$CE" run -i --rm --name "$name" -e FRESH_VITEST_ARGS="${FRESH_VITEST_ARGS:-}" \
    "$image" bash -c 'tar -xf - && exec bash .ci/fresh-machine-steps.sh'
status=$?
set -e
[ "$status" -ne 124 ] || say "timed out after ${limit}s"
say "exit $status"
exit "$status"
