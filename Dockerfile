# One image for the three roles of the scaled deployment (api, projector, worker); the role is
# chosen by the command (see docker-compose.yml). TypeScript runs through tsx, as in `npm start`.
FROM node:24-bookworm-slim

WORKDIR /app

# Dependencies first, so that a source change does not reinstall them. Every workspace's
# package.json must be present for `npm ci` to link the workspaces.
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY platform/package.json platform/
COPY projections/package.json projections/
COPY workflows/package.json workflows/
COPY api/package.json api/
COPY web/package.json web/
COPY console/package.json console/
# Dev dependencies stay: tsx runs the server, vite builds the UIs.
RUN npm ci --no-audit --no-fund && npm cache clean --force

COPY . .
# Builds the web app (served at /) and the staff console (served at /admin).
RUN npm run build

RUN mkdir -p /app/data && chown -R node:node /app/data
USER node

# A young generation of at most 4 MiB per semi-space: the buffers an upload or download passes
# through die young and are freed by cheap scavenges, instead of piling up (RSS) until a full
# collection of the whole heap every few MiB (measured: GC CPU per MiB uploaded 5-6 ms -> 1-2 ms,
# peak RSS during a 1 GiB upload ~330 -> ~230 MiB). Same flag as `npm start` and the benches.
# `--external-memory-accounted-in-global-limit` (given on the command line: NODE_OPTIONS does not
# take it) counts the bytes of Buffers within the heap's own growing limit instead of starting a
# full collection of the whole heap after every 64 MiB of them: an upload stream allocates 1 GiB of
# socket Buffers per GiB (measured: full collections during a 1 GiB upload ~60 -> 0, GC CPU per MiB
# of a Secure Fetch upload 4.2 -> 1.6 ms).
# MALLOC_ARENA_MAX=2: glibc gives each thread that allocates an arena of up to 64 MiB it keeps once
# grown (chunk workers, libuv's pool); two arenas kept the server's RSS after downloads under 300 MiB
# (files bench, 384 MiB downloaded three times: 317 -> 295 MiB). Same as `npm start` and the benches.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=4 \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data

EXPOSE 8080

CMD ["npx", "tsx", "--external-memory-accounted-in-global-limit", "api/src/main.ts", "--role", "all"]
