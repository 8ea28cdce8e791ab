# qsargraph: the service with its embedded store in /data.
#   docker build -t qsargraph . && docker run -p 8080:8080 -v qsargraph-data:/data qsargraph
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY src ./src
COPY ontology ./ontology
COPY tsconfig.json ./
ENV PORT=8080 DATA_DIR=/data NODE_ENV=production
VOLUME ["/data"]
EXPOSE 8080
CMD ["node", "--import", "tsx", "src/main.ts"]
