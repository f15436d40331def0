# slink: one image for every node. Build: docker build -t slink .
# The native SQLite driver compiles here, so the build stage has the compilers; the runtime
# stage has only Node and the production dependencies.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
# npm ci runs the build (prepare); then the dev dependencies go.
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /app/data && chown node:node /app/data && chmod 700 /app/data
USER node
EXPOSE 8080
VOLUME ["/app/data"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
