# Mailroom: one image, one supervisor (api, worker, mta), state in /data.
#
#   docker build -t mailroom .
#   docker run -d --name mailroom --network=host -v mailroom:/data \
#     -e MAIL_HOSTNAME=mail.example.com mailroom
#
# See docs/deployment.md. Stages: `deps` (production node_modules), `build`
# (TypeScript → dist/, the dashboard → web/dist/), and the runtime image, which
# takes only those and the production node_modules: no sources, tests or dev
# dependencies.

# ---- production dependencies ------------------------------------------------
# Cached on its own: a source change does not reinstall them.
# --ignore-scripts: no dependency needs an install script. better-sqlite3 ships
# N-API prebuilds for linux-x64/arm64 (loaded from lib/, no compiler), but npm
# >= 11.21 runs `node-gyp rebuild` for it anyway when package.json's allowScripts
# allows it (it has a binding.gyp), which fails without Python and make; the only
# other script in the tree (modern-syslog) is disallowed there. The load check
# proves the native binding works on this Node.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# better-sqlite3's SQLite sources and the prebuilds for other systems are dead
# weight here (~22 MB); the glibc linux-x64/arm64 builds stay.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
 && find node_modules/better-sqlite3/prebuilds -type f \
      ! -name linux-x64.node ! -name linux-arm64.node -delete \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

# ---- build: TypeScript → dist/ ----------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY plugins ./plugins
# The dashboard (issue 19): vite builds web/ into web/dist, served by the api at `/`.
COPY web ./web
# Source maps point at sources the runtime image does not have.
RUN npm run build \
 && find dist -name '*.map' -delete

# ---- runtime ----------------------------------------------------------------
FROM node:24-bookworm-slim

ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="Mailroom" \
      org.opencontainers.image.description="Self-hosted transactional mail appliance: REST API, MTA (Haraka), delivery tracking, bounces, inbound mail, signed webhooks." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim" \
      org.opencontainers.image.documentation="docs/deployment.md"

# tini as PID 1 (forwards SIGTERM to the supervisor, reaps orphans); openssl,
# with which the MTA generates its self-signed STARTTLS certificate when no
# TLS_CERT_FILE is given (Node cannot make X.509 certificates); and the
# capability that lets the non-root `node` user bind 25, 465 and 587, with
# `--network=host` too, where no port mapping can help. It is a file capability
# on the node binary: the supervisor, its children and Haraka all exec this same
# binary. setcap runs here, not in a stage copied from: the classic builder's
# COPY --from drops the security.capability xattr (verified: the binary arrived
# without it). libcap2-bin is purged in the same layer. The layer carries a
# second copy of the node binary (~120 MB): the price of a file capability.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tini openssl libcap2-bin \
 && setcap cap_net_bind_service=+ep /usr/local/bin/node \
 && getcap /usr/local/bin/node | grep -q cap_net_bind_service \
 && DEBIAN_FRONTEND=noninteractive apt-get purge -y libcap2-bin \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb \
           /var/log/apt /var/log/dpkg.log

WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY package.json ./
COPY haraka-config ./haraka-config
COPY docker/healthcheck.js ./docker/healthcheck.js
COPY docker/mailroom-ctl /usr/local/bin/mailroom-ctl

# /data is the volume: owned by `node`, private. A new named volume takes this
# owner and mode from the image; a bind mount must be writable by uid 1000.
RUN mkdir -p /data \
 && chown node:node /data \
 && chmod 0700 /data \
 && chmod 0755 /usr/local/bin/mailroom-ctl

ENV NODE_ENV=production \
    DATA_DIR=/data \
    SMTP_PORT=25 \
    SUBMISSION_PORT=587

VOLUME /data
# 465 (SMTPS) only serves when SMTPS_PORT=465 is set: off by default.
EXPOSE 25 465 587 3000

USER node

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "/app/docker/healthcheck.js"]

# The supervisor itself, not `npm start`: no rebuild at start, and SIGTERM from
# `docker stop` reaches node through tini (every child stops within 10 s).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
