# syntax=docker/dockerfile:1
# Sesame in a container: the console built in one stage, production dependencies installed in another,
# and a runtime image with only those, the server's sources and the built console, running as `node`.
#   docker build -t sesame .
#   docker run -p 3000:3000 --env-file .env sesame
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS console
WORKDIR /build
COPY package.json package-lock.json ./
# Every dependency (the console's build tool is a dev dependency); scripts run below, once the sources are here.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY scripts ./scripts
COPY src/domain ./src/domain
COPY src/i18n ./src/i18n
COPY web ./web
RUN node web/build-if-stale.ts --quiet && test -f web/dist/index.html

FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=sqlite:/app/data/sesame.db
WORKDIR /app
COPY --from=production-dependencies /build/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY migrations ./migrations
COPY web/theme ./web/theme
COPY --from=console /build/web/dist ./web/dist
# The embedded database's folder (a PostgreSQL DATABASE_URL leaves it empty); everything else is read-only to the server.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The same heap bounds and malloc arenas as `npm start` (package.json config.serverNodeFlags and serverEnvironment).
ENV MALLOC_ARENA_MAX=2
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "src/main.ts"]
