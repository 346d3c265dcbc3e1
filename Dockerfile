# syntax=docker/dockerfile:1
# regdata API image on Node.js 24 LTS (22 is supported too). The same steps as .ci/run (npm ci,
# build with tsc), then dev dependencies are pruned and the app runs as the unprivileged `node`
# user. NOT built on the development machine (no container engine there): see docs/deploy.md.

# ---- build: full toolchain, dev dependencies, TypeScript compile -------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships prebuilt binaries for linux x64/arm64; these are its fallback build tools.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci installs the workspace (the generated client, clients/typescript) too: its manifest must be here.
COPY clients/typescript/package.json ./clients/typescript/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/@regdata

# ---- runtime: compiled JavaScript and production dependencies only ----------------------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=/data/regdata.sqlite
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The identity graph's checked-in overrides (read by every load that rebuilds it).
COPY config/entity-overrides.json ./config/entity-overrides.json
# /data holds the SQLite file when no postgres:// DATABASE_URL is given (mount a volume there).
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Ready = database reachable and data loaded (503 otherwise); no curl in the slim image, so node.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]
