# One image for all eight services; SERVICE picks which one a container runs.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY packages ./packages
COPY services ./services
RUN pnpm install --frozen-lockfile --prod=false

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 LOG_FORMAT=json
COPY --from=deps /app /app
USER node
EXPOSE 8080-8087
CMD ["sh", "-c", "exec node --conditions=@hs/source services/${SERVICE:?set SERVICE}/src/server.ts"]
