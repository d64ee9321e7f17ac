# syntax=docker/dockerfile:1
# Multi-stage build: compile client and server with dev dependencies, ship production dependencies only.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# npm ci's preinstall runs the Node version check.
COPY package.json package-lock.json ./
COPY scripts/check-node.cjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/check-node.cjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# ffmpeg (with ffprobe) for lesson videos' HLS renditions, made by the job queue in the server or the worker (decision
# 0064): without it every video plays as uploaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    CLIENT_DIR=/app/dist/client
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The same command as `npm run serve` (what `npm start` runs after building).
# V8 grows the young generation to 64 MiB per semi-space under load on a large machine (16 MiB is enough: decisions
# 0029 and 0030) and lets the old generation grow up to 4x past what survives a full collection (1.5x here: decision 0030);
# together they keep the server under 200 MiB under load. package.json's start, serve and worker use them too.
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "dist/server/src-server/main.js"]
