# The production image: the same steps as the tested production install (a clean `npm ci`, `npm run build`,
# `npm prune --omit=dev`, then `npm start`). See docs/deploy.md.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# tini reaps children and passes SIGTERM on, so the server drains; pg_dump and psql (PostgreSQL 15, as in compose.yaml)
# let `npm run backup` and `npm run restore` run from the image.
RUN apt-get update \
	&& apt-get install -y --no-install-recommends tini postgresql-client \
	&& rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
	CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# What `npm start` runs, without npm and a shell in between, so SIGTERM reaches the server itself.
CMD ["node", "--import", "tsx", "server.ts"]
