# qsargraph: the service with its embedded store in /data.
#
# Two stages: the first installs every dependency and compiles src/ to JavaScript (npm run build
# → dist/); the image itself has only the production dependencies, dist/ and ontology/, and runs
# the compiled service with plain node (no tsx, no TypeScript).
#
# In a container the service must bind 0.0.0.0 to be reachable, and on a non-loopback interface
# it refuses to start without API tokens (README "Access control"). So give tokens:
#   docker build -t qsargraph .
#   docker run -p 8080:8080 -v qsargraph-data:/data -e QSARGRAPH_TOKENS="admin $(openssl rand -hex 32) admin" qsargraph
# or a tokens file (one '<name> <token> [admin]' per line):
#   docker run -p 8080:8080 -v qsargraph-data:/data -v "$PWD/tokens:/run/secrets/qsargraph-tokens:ro" \
#     -e TOKENS_FILE=/run/secrets/qsargraph-tokens qsargraph
# or, on a network only you can reach, no access control at all:
#   docker run -p 127.0.0.1:8080:8080 -v qsargraph-data:/data qsargraph --open
# Further flags go after the image name (they are passed to the service), e.g. --base-url.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY ontology ./ontology
COPY --from=build /app/dist ./dist
ENV PORT=8080 HOST=0.0.0.0 DATA_DIR=/data NODE_ENV=production
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["node", "dist/main.js"]
