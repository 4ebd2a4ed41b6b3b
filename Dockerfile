# One image for the five services; docker-compose.yml picks the service with its command.
FROM node:20-bookworm-slim AS base
WORKDIR /app
# better-sqlite3 builds from source (the embedded mode ships in the same image).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json nx.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
ENV NODE_ENV=production MODE=distributed DATA_DIR=/var/lib/pss
RUN mkdir -p /var/lib/pss && chown node:node /var/lib/pss
USER node
EXPOSE 3000
CMD ["npm", "start"]
