# A fresh machine of the kind the project is built on, for the `npm ci && npm test` CI step: Node 22 and npm, a compiler
# for native addons, fonts, curl and a browser's shared libraries, as our machines' image carries them. No ffmpeg, no
# ffprobe, no Chromium: those must come from npm packages. The project's files are not in the image (see .ci/fresh-machine.sh).
FROM node:22-slim
# Our machines' npm is set to build native addons against Node's own headers (nodedir): node-gyp then downloads nothing,
# which it could not (only the npm registry is reachable). better-sqlite3 builds from source that way.
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      python3 make g++ \
      curl ca-certificates procps \
      fonts-dejavu-core \
      libnss3 libnspr4 libatk1.0-0 libatk-bridge2.0-0 libcups2 libdrm2 libxkbcommon0 libxcomposite1 libxdamage1 \
      libxfixes3 libxrandr2 libgbm1 libasound2 libpango-1.0-0 libcairo2 libdbus-1-3 libexpat1 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /work
