# One production image for the five services (and the embedded mode); docker-compose.yml picks the service
# with its command. The TypeScript sources run through SWC on load (no build step), so the final stage holds
# the sources and the production dependencies only: no compiler toolchain, no test or benchmark tooling.

# Node 22 is an LTS line (maintained until April 2027); package.json asks for >= 20.19.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches: the toolchain stays in this stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it forwards SIGTERM to node (which drains and exits 0) and reaps zombies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production MODE=distributed DATA_DIR=/var/lib/pss
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json tsconfig.base.json tsconfig.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
# The data directory (control socket, key file, embedded event store) is the only place the service writes, with
# /var/lib/pss-secret, where docker-compose.yml mounts the key file every service shares (SECRET_KEY_FILE). Created
# here, owned by node, so a named volume mounted there starts writable by the service.
RUN mkdir -p /var/lib/pss /var/lib/pss-secret && chown node:node /var/lib/pss /var/lib/pss-secret
USER node
EXPOSE 3000
# Ready once the read models have caught up; PORT is each service's own (docker-compose.yml sets it).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "-r", "./tools/register.js", "apps/embedded/src/main.ts"]
