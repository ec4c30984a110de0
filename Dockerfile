# syntax=docker/dockerfile:1
# One Dockerfile for all eight services: `docker build --build-arg SERVICE=gateway -t hs-gateway .`
# The image holds that service, the shared packages it imports and their production
# dependencies only, and runs its production build (`pnpm build`: one compiled ES module,
# services/<name>/dist/server.js, made in the build stage with the dev tools, which the image
# does not keep). The bundle holds the registry packages every boot loads and imports the others
# by their path under node_modules/.pnpm, which a production install of the same lockfile (with
# the patches under patches/) lays out the same way. Runs as the unprivileged `node` user with a read-only root
# filesystem: the only writable paths are the /data and /blobs volumes and /tmp (tmpfs).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY patches ./patches
COPY packages ./packages
COPY services ./services
COPY scripts ./scripts
RUN pnpm install --frozen-lockfile && pnpm build

FROM ${NODE_IMAGE} AS deps
ARG SERVICE
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=<name>" && exit 1)
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY patches ./patches
COPY packages ./packages
COPY services ./services
COPY scripts/serve.mjs ./scripts/serve.mjs
# Only this service and the workspace packages it depends on, production dependencies only.
RUN pnpm install --frozen-lockfile --prod --filter "@hs/${SERVICE}..." \
 && rm -rf packages/*/test services/*/test \
 && find services -mindepth 1 -maxdepth 1 -type d ! -name "${SERVICE}" -exec rm -rf {} +
COPY --from=build /app/services/${SERVICE}/dist ./services/${SERVICE}/dist

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
# Debian's Chromium for the services that drive a real browser (cartprep, browser-bridge).
RUN if [ "$SERVICE" = "cartprep" ] || [ "$SERVICE" = "browser-bridge" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends chromium fonts-liberation \
      && rm -rf /var/lib/apt/lists/*; \
    fi
ENV NODE_ENV=production \
    SERVICE=${SERVICE} \
    HOST=0.0.0.0 \
    PERSISTENCE_BACKEND=sqlite \
    DATA_DIR=/data \
    ARTIFACT_LOCAL_DIR=/blobs \
    BROWSER_CHROMIUM_PATH=/usr/bin/chromium
# The services' Node options: SERVICE_NODE_OPTIONS in packages/service-kit/src/node-options.ts.
ENV NODE_OPTIONS=--max-semi-space-size=2
WORKDIR /app
COPY --from=deps --chown=root:root /app /app
RUN mkdir -p /data /blobs && chown node:node /data /blobs
VOLUME ["/data", "/blobs"]
USER node
EXPOSE 8080-8087
# Liveness (/health), not /ready: compose's depends_on waits on it, and readiness depends on
# peers that may start later (wardrobe's readiness needs the gateway, the gateway's needs wardrobe).
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const d={gateway:8080,orchestrator:8081,wardrobe:8082,commerce:8083,vto:8084,cartprep:8085,'browser-bridge':8086,'artifacts-audit':8087};fetch('http://127.0.0.1:'+(process.env.PORT||d[process.env.SERVICE]||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM reaches node directly (exec form, no shell): graceful shutdown within SHUTDOWN_GRACE_SECONDS.
CMD ["node", "scripts/serve.mjs"]
