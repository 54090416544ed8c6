# The emulator as an image for front-end developers: bundled with esbuild, run as `node` with a static ffmpeg.
# Build: docker build -t media-gen-emulator .   Run: docker run --rm -p 127.0.0.1:8787:8787 media-gen-emulator
# Every setting is an environment variable (see docs/frontend.md); flags after the image name go to the CLI.

# ---- build: every dependency and esbuild; none of it reaches the runtime image ----
# No compiler: the image's Node 22 has node:sqlite built in; better-sqlite3, the optional dependency that stands in for it
# on Node 20, is unpacked here without its install script (never loaded) and left out of the runtime.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the root `prepare` would build before src/ is copied; bundling needs no dependency's script.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.ts scripts/bundle-cli.ts scripts/bundle-console.ts scripts/bundle-msw.ts ./scripts/
COPY src ./src
# The image runs only the CLI, and its esbuild bundle (dist/cli/) is self-contained: this is the second half of
# `npm run build` without the library's tsc output and type-check, which CI runs. 5 s instead of 90 s on a busy machine.
# The console's control client (src/console/control-client.js) is bundled from the registry here too.
RUN node --import tsx --input-type=module \
      -e "const { bundleCli } = await import('./scripts/bundle-cli.ts'); await bundleCli('/app/src', '/app/dist'); const { bundleConsole } = await import('./scripts/bundle-console.ts'); await bundleConsole('/app/src')"

# ---- production dependencies: pure JavaScript, so no install script needs to run ----
FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional leaves out the 66 MB @ffmpeg-installer/linux-x64 (the runtime takes its binary from the build stage
# at a fixed path) and better-sqlite3 (Node 22 uses node:sqlite). --ignore-scripts skips the root `prepare` (it needs
# the dev dependencies); no production dependency left has an install script.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# ---- the same base without what only building needs: Node's C headers (65 MB), npm, corepack and yarn ----
FROM node:22-slim AS slim-node
RUN rm -rf /usr/local/include /usr/local/lib/node_modules /opt/yarn-* \
 && rm -f /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg

# ---- runtime: that file system as one layer (files deleted in a layer above the base would still count), no apt ----
FROM scratch AS runtime
COPY --from=slim-node / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# A static build (libx264, aac, drawtext, libwebp, libmp3lame; no xfade, which the renderer replaces with fade and
# overlay): 68 MB against the 330 MB that Debian's ffmpeg and its libraries add. Text uses the font in fixtures/.
COPY --from=build /app/node_modules/@ffmpeg-installer/linux-x64/ffmpeg /usr/local/bin/ffmpeg
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY fixtures ./fixtures
COPY --from=build /app/src/console ./src/console
COPY --from=build /app/dist ./dist
# /data is a writable place for MEDIA_EMULATOR_STATE_FILE; mount a volume there to keep state across restarts.
RUN mkdir -p /data && chown node:node /data

# Bind every interface so a published port reaches the server; 8787 is the default port. Bound beyond loopback, the
# emulator generates an admin token for /_emulator/* and prints it (with a console link) unless EMULATOR_ADMIN_TOKEN
# is set; publish on 127.0.0.1 (-p 127.0.0.1:8787:8787) so only this machine can reach it (docs/control-plane.md).
ENV HOST=0.0.0.0 \
    PORT=8787 \
    FFMPEG_PATH=/usr/local/bin/ffmpeg
EXPOSE 8787
USER node

# No curl in the slim base: node's fetch checks that the renderer is ready, not just that the port answers.
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/_emulator/health').then(r=>r.json()).then(b=>process.exit(b.status==='ok'?0:1),()=>process.exit(1))"]

# Exec form: node is PID 1 and gets SIGTERM itself; the CLI closes the server and exits in well under a second.
# As the entrypoint, `docker run IMAGE --timing fast --seed 7` passes flags straight to the CLI.
ENTRYPOINT ["node", "dist/cli/main.js"]
