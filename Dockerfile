# Multi-stage build: compile TypeScript in a build stage, ship only what runs (docs/decisions/0050-operator-hardening.md).
# Node 24, the LTS line the registry targets, on Debian stable (slim). No compiler in either stage: the SQLite binding
# ships prebuilt in its package and install scripts stay off (package.json's allowScripts and scarfSettings).
FROM node:24-trixie-slim AS build
ENV SCARF_ANALYTICS=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
WORKDIR /app
COPY package.json package-lock.json ./
# No install script is needed (none builds anything): none runs, so none phones home (@scarf/scarf's would not anyway).
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY openapi ./openapi
COPY src ./src
# The production install an operator would make: the compiled service and the dependencies it runs with.
RUN npm run build && npm prune --omit=dev && chmod 0755 dist/src/cli/main.js

FROM node:24-trixie-slim
ENV NODE_ENV=production \
    SCARF_ANALYTICS=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    HOST=0.0.0.0 \
    PORT=6543 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY openapi ./openapi
# The one command on PATH, as a global install of the package would link it.
RUN ln -s /app/dist/src/cli/main.js /usr/local/bin/claimrights-registry \
 && mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME ["/data"]
EXPOSE 6543
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/0.1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# `docker run IMAGE` serves; `docker run IMAGE import --from …`, `… backup /data/backups/x.tgz`, `… --help`.
# First start: the fresh API keys and the log's verifier key are printed to standard output, so to `docker logs`.
ENTRYPOINT ["claimrights-registry"]
CMD ["serve"]
