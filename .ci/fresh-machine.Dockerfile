# A fresh machine as the README promises it is enough: plain node:22-slim (Node 22 and npm), plus curl for the README's
# "Try it in two minutes" block and its walkthrough test. No compiler, no python3, no fonts, no procps, no browser
# libraries, no ffmpeg, ffprobe or Chromium, no npm settings: whatever else the project needs must come from npm.
# The project's files are not in the image (see .ci/fresh-machine.sh); it runs as the image's unprivileged `node` user.
FROM node:22-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/*
USER node
WORKDIR /home/node/app
