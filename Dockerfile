# The service image: built with exactly the package's scripts (npm ci runs `prepare`, which is `npm run build`),
# run with exactly its start command (`npm start` execs `node dist/server/main.js`), as a non-root user with
# DATA_DIR on a volume. docs/deployment.md describes the settings, the grace period and backups.
# test/runtime/dockerfile.test.ts checks these commands against package.json.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles its native module when no prebuilt binary fits the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Debian's Chromium for the browser view (CHROMIUM_PATH defaults to /usr/bin/chromium); without it scans say the
# view was not run. It runs as the non-root user below, so its sandbox stays on.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: /healthz touches no store. Orchestrators that route traffic should probe /readyz as well.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# node is PID 1 and handles SIGTERM itself (drain, finish in-flight work, exit 0); no shell in between.
CMD ["node", "dist/server/main.js"]
