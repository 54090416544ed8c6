#!/usr/bin/env bash
# The fresh-machine CI step's inside (.ci/fresh-machine.sh copies the checkout into the container and runs this there):
# a new user's first hour on a plain node:22-slim, as its unprivileged `node` user, with no apt and no npm settings.
# Each step says how long it took; the first failing one ends the run with its status.
set -euo pipefail
t0=$(date +%s)
say() { printf '[fresh machine, in the container +%ss] %s\n' "$(($(date +%s) - t0))" "$*"; }

say "node $(node --version), npm $(npm --version), user $(id -un), capabilities $(grep CapEff /proc/self/status | cut -f2)"
for tool in ffmpeg ffprobe chromium python3 make g++ cc ps; do
  ! command -v "$tool" >/dev/null || { echo "$tool is installed: not a fresh machine" >&2; exit 3; }
done
! env | grep -i '^npm_config_' || { echo "npm settings in the environment: not a fresh machine" >&2; exit 3; }

# 1. The README's first command. better-sqlite3 (optional) fails to build here and is dropped: Node 22 uses node:sqlite.
s=$(date +%s)
npm ci --no-audit --no-fund --loglevel=error
say "npm ci: $(($(date +%s) - s)) s"

# 2. "Try it in two minutes" as written: npm start in one terminal, the marked block in another, with the ffmpeg and
#    ffprobe that npm brought on PATH as the README says.
npm start -- --timing fast >/tmp/emulator.log 2>&1 &
server=$!
export PATH="$PWD/node_modules/@ffmpeg-installer/linux-x64:$PWD/node_modules/@ffprobe-installer/linux-x64:$PATH"
curl -s --retry 60 --retry-connrefused --retry-delay 1 -o /dev/null http://127.0.0.1:8787/_emulator/health
node --import tsx --input-type=module \
  -e "const { readmeExamples } = await import('./scripts/readme-examples.ts'); process.stdout.write(readmeExamples().find((e) => e.name === 'try-it.sh').code)" \
  >/tmp/try-it.sh
mkdir -p /tmp/try-it
(cd /tmp/try-it && bash -euo pipefail /tmp/try-it.sh) | tee /tmp/try-it.out
duration=$(sed -n 4p /tmp/try-it.out)
if [ ! -s /tmp/try-it/fox.mp4 ] || [ "${duration%%.*}" != 4 ]; then
  echo "the README block made no 4 s fox.mp4" >&2
  cat /tmp/emulator.log >&2
  exit 4
fi
say "first generation completed and its MP4 downloaded (npm ci, npm start, the README block)"
kill "$server"
wait "$server" || true

# 3. The packed tarball in a consumer project: installed (better-sqlite3 dropped there too), its CLI and library used.
s=$(date +%s)
# npm pack runs `prepare` (the build) even with --ignore-scripts; its output is not the tarball name, so list it.
npm pack --silent --pack-destination /tmp >/dev/null
tarball=$(ls /tmp/media-gen-emulator-*.tgz)
mkdir /tmp/consumer
(
  cd /tmp/consumer
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error "$tarball"
  npx --no-install media-gen-emulator --help | head -1
  cat >consumer.mjs <<'JS'
import { startEmulator } from 'media-gen-emulator';

const media = await startEmulator({ timing: 'manual', seed: 1 });
const res = await fetch(`${media.url}/v1/media/generations`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${media.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'fresh-machine-1' },
  body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'a lighthouse at dusk', max_credits: 10 }),
});
const { generation } = await res.json();
const done = await media.control.waitFor(generation.id, 'completed');
const file = await fetch(done.outputs[0].url);
const bytes = (await file.arrayBuffer()).byteLength;
console.log(`consumer: ${done.status}, ${bytes} bytes of ${file.headers.get('content-type')}, renderer ${media.emulator.rendererInfo()?.mode}`);
await media.close();
JS
  node consumer.mjs
  # The README's msw line, as a consumer writes it: media-gen-emulator/msw under setupServer (msw 3, its peer).
  npm install --no-audit --no-fund --loglevel=error msw@3
  cat >consumer-msw.mjs <<'JS'
import { setupServer } from 'msw/node';
import { createMediaHandlers } from 'media-gen-emulator/msw';

const media = await createMediaHandlers({ baseUrl: 'http://api.test', timing: 'manual', seed: 1 });
const server = setupServer(...media.handlers);
server.listen({ onUnhandledRequest: 'error' });
const res = await fetch('http://api.test/v1/media/estimate', {
  method: 'POST',
  headers: { Authorization: `Bearer ${media.apiKey}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'a lighthouse at dusk' }),
});
const body = await res.json();
if (res.status !== 200 || typeof body.credits !== 'number') throw new Error(`estimate: ${res.status} ${JSON.stringify(body)}`);
console.log(`consumer (msw): estimate ${body.credits} credits through setupServer`);
server.close();
await media.close();
JS
  node consumer-msw.mjs
)
say "consumer project: the packed tarball installed and used (library, CLI, msw) in $(($(date +%s) - s)) s"

# 4. The README's second command.
# shellcheck disable=SC2086 # FRESH_VITEST_ARGS is a list of arguments
npm test -- ${FRESH_VITEST_ARGS:-}
