#!/usr/bin/env bash
# Builds the image and proves it works end to end: healthy, a generation completes, its MP4 downloads through the mapped port,
# SIGTERM stops it fast, and the state file in /data keeps every generation through a restart and through kill -9.
#
# Usage: scripts/docker-smoke.sh            (from anywhere; builds the repository this script lives in)
# Engine: `docker` when a Docker engine answers, else ../shared/tools/container-engine.sh (podman; run as root).
# Settings (env): SMOKE_IMAGE (default localhost/media-gen-emulator:smoke), SMOKE_NO_CACHE=1 (cold build),
#   SMOKE_CONTEXT (build context, default the repository; e.g. a `git archive` of a commit),
#   SMOKE_TIMEOUT_S (per wait, default 90), SMOKE_STOP_LIMIT_S (default 3), SMOKE_KEEP_IMAGE=0 (remove the image at the end).
# Exits non-zero, with the container's log, on any failure. Needs curl and node on the host; ffprobe is used when present
# (on PATH, or the one npm install brought).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONTEXT="${SMOKE_CONTEXT:-$ROOT}"
IMAGE="${SMOKE_IMAGE:-localhost/media-gen-emulator:smoke}"
NAME="media-gen-emulator-smoke-$$"
TIMEOUT_S="${SMOKE_TIMEOUT_S:-90}"
STOP_LIMIT_S="${SMOKE_STOP_LIMIT_S:-3}"
API_KEY="sk-media-smoke-test-key"
BALANCE=50000
WORK="$(mktemp -d)"
declare -a TIMINGS=()

say() { printf '[docker-smoke] %s\n' "$*"; }
now_ms() { date +%s%3N; }
record() { TIMINGS+=("$(printf '%-28s %s' "$1" "$2")"); say "$1: $2"; }
seconds_since() { awk -v a="$1" -v b="$(now_ms)" 'BEGIN { printf "%.2f", (b - a) / 1000 }'; }
# JSON fields are read with node (always present for this project), not jq (often absent).
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let v;try{v=new Function("j","return ("+process.argv[1]+")")(JSON.parse(s))}catch{v=""}process.stdout.write(v===undefined||v===null?"":String(v))})' "$1"; }

# ---- choose an engine ----
if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  ENGINE=docker
  build() { DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-1}" docker build -t "$IMAGE" "$@" "$CONTEXT"; }
  engine() { docker "$@"; }
  # A real Docker engine runs the HEALTHCHECK itself; ask it every second so the wait is short.
  run_detached() { docker run -d --health-interval 1s --stop-timeout 10 "$@"; }
  health_probe() { [ "$(docker inspect -f '{{.State.Health.Status}}' "$NAME" 2>/dev/null)" = healthy ]; }
else
  CE="$ROOT/../shared/tools/container-engine.sh"
  if [ ! -x "$CE" ]; then
    say "FAIL: no Docker engine answers and $CE is missing; install Docker or the container-engine tool." >&2
    exit 1
  fi
  ENGINE="podman via container-engine.sh"
  t=$(now_ms)
  "$CE" setup >"$WORK/setup.log" 2>&1 || { cat "$WORK/setup.log" >&2; say "FAIL: container-engine.sh setup" >&2; exit 1; }
  record "engine setup" "$(seconds_since "$t") s"
  build() { "$CE" build "$CONTEXT" "$IMAGE" "$@"; }
  engine() { "$CE" podman "$@"; }
  run_detached() { "$CE" run -d "$@"; }
  # podman schedules HEALTHCHECKs through systemd, which is absent here: run the image's own check on demand.
  health_probe() { "$CE" podman healthcheck run "$NAME" >/dev/null 2>&1; }
fi
say "engine: $ENGINE"

cleanup() {
  local status=$?
  if [ $status -ne 0 ] && engine inspect "$NAME" >/dev/null 2>&1; then
    say "container log:" >&2
    engine logs "$NAME" 2>&1 | tail -40 >&2 || true
  fi
  engine rm -f "$NAME" >/dev/null 2>&1 || true
  [ "${SMOKE_KEEP_IMAGE:-1}" = 0 ] && engine rmi -f "$IMAGE" >/dev/null 2>&1 || true
  rm -rf "$WORK"
  exit $status
}
trap cleanup EXIT
fail() { say "FAIL: $*" >&2; exit 1; }

# ---- build ----
t=$(now_ms)
build_args=()
[ "${SMOKE_NO_CACHE:-0}" = 1 ] && build_args+=(--no-cache)
build "${build_args[@]}" >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log" >&2; fail "image build"; }
record "build$([ "${SMOKE_NO_CACHE:-0}" = 1 ] && echo ' (no cache)')" "$(seconds_since "$t") s"
size=$(engine image inspect -f '{{.Size}}' "$IMAGE" 2>/dev/null || echo 0)
record "image size" "$((size / 1000000)) MB"

# ---- run with a mapped port; the public URL makes signed links point at the mapping ----
PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
BASE="http://127.0.0.1:$PORT"
t_run=$(now_ms)
run_detached --name "$NAME" -p "127.0.0.1:$PORT:8787" \
  -e MEDIA_EMULATOR_TIMING=fast \
  -e MEDIA_EMULATOR_API_KEY="$API_KEY" \
  -e MEDIA_EMULATOR_BALANCE="$BALANCE" \
  -e MEDIA_EMULATOR_SEED=7 \
  -e MEDIA_EMULATOR_PUBLIC_URL="$BASE" \
  -e MEDIA_EMULATOR_CORS_ORIGINS="http://localhost:5173" \
  -e MEDIA_EMULATOR_STATE_FILE=/data/state.json \
  "$IMAGE" >/dev/null || fail "docker run"

deadline=$(( $(date +%s) + TIMEOUT_S ))
wait_healthy() {
  until [ "$(curl -fsS "$BASE/_emulator/health" 2>/dev/null | json j.status)" = ok ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "no healthy answer on $BASE/_emulator/health within ${TIMEOUT_S}s"
    sleep 0.1
  done
}
wait_healthy
record "run -> HTTP health ok" "$(seconds_since "$t_run") s"
until health_probe; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "the image's HEALTHCHECK never passed"
  sleep 0.2
done
record "run -> HEALTHCHECK passed" "$(seconds_since "$t_run") s"
# Real renders, not fixture files: the image's static ffmpeg was found and works.
mode=$(curl -fsS "$BASE/_emulator/health" | json 'j.renderer && j.renderer.mode + " " + j.renderer.binary')
[ "${mode%% *}" = ffmpeg ] || fail "the renderer is not ffmpeg: $(curl -fsS "$BASE/_emulator/health")"
record "renderer" "$mode"
[ "$(engine inspect -f '{{.Config.User}}' "$NAME")" = node ] || fail "the container does not run as the node user"

# ---- the console page and its script come from src/console/, which tsc does not copy: prove the image has them ----
curl -fsS -o /dev/null "$BASE/_emulator/console" || fail "GET /_emulator/console"
curl -fsS -o /dev/null "$BASE/_emulator/console/console.js" || fail "GET /_emulator/console/console.js"

# ---- CORS: a browser app on the configured origin may send the bearer key and an Idempotency-Key ----
curl -fsS -o /dev/null -D "$WORK/preflight" -X OPTIONS "$BASE/v1/media/generations" \
  -H 'Origin: http://localhost:5173' -H 'Access-Control-Request-Method: POST' \
  -H 'Access-Control-Request-Headers: authorization,content-type,idempotency-key' || fail "CORS preflight"
grep -qi '^access-control-allow-origin: http://localhost:5173' "$WORK/preflight" || fail "CORS preflight did not allow the configured origin"

# ---- a generation, submitted and polled with curl ----
# submit FILE KEY-SUFFIX PROMPT: a Model A generation, its answer in $WORK/FILE.
submit() {
  curl -fsS -o "$WORK/$1" "$BASE/v1/media/generations" \
    -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' -H "Idempotency-Key: smoke-$$-$2" \
    -d "{\"model_slug\":\"motion-lite-v1\",\"prompt\":\"$3\",\"params\":{\"duration\":\"4\"},\"max_credits\":1000}" \
    || fail "submit: $(cat "$WORK/$1" 2>/dev/null)"
}
t=$(now_ms)
submit submit.json 0001 'docker smoke test: a paper boat on a pond'
ID=$(json j.generation.id <"$WORK/submit.json")
[ -n "$ID" ] || fail "submit answered without an id: $(cat "$WORK/submit.json")"
say "submitted $ID ($(json j.generation.charged_credits <"$WORK/submit.json") credits)"
while :; do
  curl -fsS -o "$WORK/read.json" -H "Authorization: Bearer $API_KEY" "$BASE/v1/media/generations/$ID" || fail "read $ID"
  status=$(json j.generation.status <"$WORK/read.json")
  [ "$status" = completed ] && break
  [ "$status" = failed ] && fail "generation failed: $(cat "$WORK/read.json")"
  [ "$(date +%s)" -lt "$deadline" ] || fail "generation still $status after ${TIMEOUT_S}s"
  sleep 0.2
done
record "submit -> completed" "$(seconds_since "$t") s"

# ---- the MP4 through the signed URL on the mapped port, whole and by range ----
URL=$(json 'j.generation.outputs[0].url' <"$WORK/read.json")
case "$URL" in "$BASE"/*) ;; *) fail "signed URL $URL does not use MEDIA_EMULATOR_PUBLIC_URL ($BASE)" ;; esac
t=$(now_ms)
curl -fsS -o "$WORK/out.mp4" "$URL" || fail "download $URL"
record "download MP4" "$(seconds_since "$t") s, $(wc -c <"$WORK/out.mp4") bytes"
FFPROBE=$(command -v ffprobe || true)
[ -n "$FFPROBE" ] || [ ! -x "$ROOT/node_modules/@ffprobe-installer/linux-x64/ffprobe" ] || FFPROBE="$ROOT/node_modules/@ffprobe-installer/linux-x64/ffprobe"
if [ -n "$FFPROBE" ]; then
  probe=$("$FFPROBE" -v error -show_entries format=format_name,duration -of default=nw=1 "$WORK/out.mp4") || fail "ffprobe could not read the download"
  grep -q 'format_name=.*mp4' <<<"$probe" || fail "not an MP4: $probe"
  say "ffprobe: $(tr '\n' ' ' <<<"$probe")"
else
  [ "$(dd if="$WORK/out.mp4" bs=1 skip=4 count=4 2>/dev/null)" = ftyp ] || fail "the download has no ftyp box"
  say "ftyp box present"
fi
range_status=$(curl -sS -o /dev/null -w '%{http_code}' -r 0-99 "$URL")
[ "$range_status" = 206 ] || fail "Range request answered $range_status, not 206"

# ---- SIGTERM: the CLI closes the server and exits 0, well inside the stop timeout ----
t=$(now_ms)
# (podman without systemd logs a harmless "unable to get systemd connection" line here; it is kept out of the output.)
engine stop -t 10 "$NAME" >/dev/null 2>"$WORK/stop.log" || { cat "$WORK/stop.log" >&2; fail "stop"; }
stop_s=$(seconds_since "$t")
exit_code=$(engine inspect -f '{{.State.ExitCode}}' "$NAME")
record "stop (SIGTERM -> exited)" "$stop_s s, exit code $exit_code"
[ "$exit_code" = 0 ] || fail "exit code $exit_code after SIGTERM (137 means it was killed after the timeout)"
awk -v s="$stop_s" -v l="$STOP_LIMIT_S" 'BEGIN { exit !(s < l) }' || fail "stopping took ${stop_s}s (limit ${STOP_LIMIT_S}s)"

# ---- the state file (/data, MEDIA_EMULATOR_STATE_FILE): written on SIGTERM, and every acknowledged change fsynced ----
read_status() { curl -fsS -H "Authorization: Bearer $API_KEY" "$BASE/v1/media/generations/$1" | json j.generation.status; }
balance() { curl -fsS -H "Authorization: Bearer $API_KEY" "$BASE/v1/media/usage" | json j.wallet_balance; }
deadline=$(( $(date +%s) + TIMEOUT_S ))
engine start "$NAME" >/dev/null 2>>"$WORK/stop.log" || fail "restart after SIGTERM"
wait_healthy
[ "$(read_status "$ID")" = completed ] || fail "after a SIGTERM and a restart, $ID is not there as completed"
before_kill=$(balance)
submit submit2.json 0002 'docker smoke test: kept through kill -9'
ID2=$(json j.generation.id <"$WORK/submit2.json")
[ -n "$ID2" ] && [ "$ID2" != "$ID" ] || fail "the seeded id $ID was issued again after the restart: $(cat "$WORK/submit2.json")"
after_submit=$(balance)
engine kill -s KILL "$NAME" >/dev/null 2>>"$WORK/stop.log" || fail "kill -9"
engine start "$NAME" >/dev/null 2>>"$WORK/stop.log" || fail "restart after kill -9"
wait_healthy
[ -n "$(read_status "$ID2")" ] || fail "$ID2, accepted before kill -9, is gone after the restart"
[ "$(balance)" = "$after_submit" ] || fail "balance $(balance) after kill -9, $after_submit before (and $before_kill before the submit)"
record "state file" "kept through SIGTERM and kill -9 ($ID, $ID2, balance $after_submit)"
engine stop -t 10 "$NAME" >/dev/null 2>>"$WORK/stop.log" || true

say "PASS ($ENGINE)"
printf '%s\n' "${TIMINGS[@]}"
