# The emulator as an image for front-end developers: compile in one stage, run as `node` with Debian's ffmpeg in the other.
# Build: docker build -t media-gen-emulator .   Run: docker run --rm -p 127.0.0.1:8787:8787 media-gen-emulator
# Every setting is an environment variable (see docs/frontend.md); flags after the image name go to the CLI.

# ---- build: dev dependencies and the TypeScript compiler never reach the runtime image ----
FROM node:22-slim AS build
# better-sqlite3 (the store of record) is a native addon: built here, where a compiler is, for the runtime's Node.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the optional ffmpeg-static postinstall downloads a binary from GitHub; compiling needs none of it.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.ts scripts/bundle-cli.ts ./scripts/
COPY src ./src
RUN npm run build
# Production dependencies apart, with only better-sqlite3's install script run (ffmpeg-static's would fetch a binary).
RUN mkdir /prod && cp package.json package-lock.json /prod/ && cd /prod \
 && npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3

# ---- runtime: the same base, production dependencies only ----
FROM node:22-slim AS runtime
# Debian's ffmpeg renders the MP4s; the DejaVu fonts back up the font shipped in fixtures/.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Built in the build stage: --omit=optional skipped ffmpeg-static (the Debian ffmpeg above is used instead).
COPY --from=build /prod/node_modules ./node_modules
COPY fixtures ./fixtures
COPY src/console ./src/console
COPY --from=build /app/dist ./dist
# /data is a writable place for MEDIA_EMULATOR_STATE_FILE; mount a volume there to keep state across restarts.
RUN mkdir -p /data && chown node:node /data

# Bind every interface so a published port reaches the server; 8787 is the default port. Bound beyond loopback, the
# emulator generates an admin token for /_emulator/* and prints it (with a console link) unless EMULATOR_ADMIN_TOKEN
# is set; publish on 127.0.0.1 (-p 127.0.0.1:8787:8787) so only this machine can reach it (docs/control-plane.md).
ENV HOST=0.0.0.0 \
    PORT=8787 \
    FFMPEG_PATH=/usr/bin/ffmpeg
EXPOSE 8787
USER node

# No curl in the slim base: node's fetch checks that the renderer is ready, not just that the port answers.
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/_emulator/health').then(r=>r.json()).then(b=>process.exit(b.status==='ok'?0:1),()=>process.exit(1))"]

# Exec form: node is PID 1 and gets SIGTERM itself; the CLI closes the server and exits in well under a second.
# As the entrypoint, `docker run IMAGE --timing fast --seed 7` passes flags straight to the CLI.
ENTRYPOINT ["node", "dist/cli/main.js"]
