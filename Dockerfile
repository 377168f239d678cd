# Multi-stage build: compile TypeScript and the native SQLite binding in a build stage, ship only what runs.
# Node 24, the LTS line the registry targets (CI runs the suite on it: scripts/node-lts.sh). The binding is compiled
# from source against Node 24.18.1's headers: better-sqlite3 12 compiled against those of 24.19.0 or later aborts
# the process when a garbage collection finalises a statement (scripts/node-lts.sh says why). Built for 24.18.1, it
# runs on every 24.x: the image ships the newest.
FROM node:24.18.1-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm_config_build_from_source=true npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY openapi ./openapi
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=6543 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The docs page is read at run time from src/generated (the rest of src/ is compiled into dist/).
COPY --from=build /app/src/generated ./src/generated
COPY package.json ./
COPY openapi ./openapi
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 6543
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/0.1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/server.js"]
