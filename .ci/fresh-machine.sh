#!/usr/bin/env bash
# CI step: the README's two commands, `npm ci && npm test`, in a clean node:22-slim container that has only what our
# machines' image carries (a compiler, fonts, curl, the browser's shared libraries) and no ffmpeg, ffprobe or Chromium,
# so every tool the tests use must come from npm. Exits with npm's status; prints vitest's closing lines.
# Needs root and ../shared/tools/container-engine.sh (podman). FRESH_TIMEOUT_S bounds the container run (default 1500).
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
say "image: node:22-slim + compiler, fonts, curl, browser libraries"
timeout 600 "$CE" build .ci "$image" -f .ci/fresh-machine.Dockerfile >/dev/null
# --image-only: CI builds the image early, beside the CPU-bound steps (it is mostly apt downloads), and runs it later.
[ "${1:-}" != --image-only ] || { say "image ready"; exit 0; }
# A hang must not outlive the limit: `timeout` ends the client, and this removes the container itself.
trap '"$CE" podman rm -f "$name" >/dev/null 2>&1 || true' EXIT

say "copy the checkout (tracked and new files: no node_modules, dist or local state), then npm ci && npm test"
set +e
# --cap-add SYS_ADMIN: our machines run the suite as root, and the full-disk tests mount a 2 MB tmpfs.
git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null |
  timeout --kill-after=30 "$limit" "$CE" run -i --rm --cap-add SYS_ADMIN --name "$name" "$image" bash -c '
    set -euo pipefail
    tar -xf -
    for tool in ffmpeg ffprobe chromium; do ! command -v "$tool" >/dev/null || { echo "$tool is installed: not a fresh machine" >&2; exit 3; }; done
    node --version
    npm ci --no-audit --no-fund --loglevel=error
    npm test'
status=$?
set -e
[ "$status" -ne 124 ] || say "timed out after ${limit}s"
say "exit $status"
exit "$status"
