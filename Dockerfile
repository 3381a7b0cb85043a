# The image deploy/compose.yaml builds: the referee with its fonts and the browser client.
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends fonts-nanum npm && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/referee
COPY . .
RUN pip install --no-cache-dir -e . \
 && npm install --no-save --no-audit --no-fund --prefix build/npm socket.io-client@4.8.1 \
 && mkdir -p referee/server/static/vendor \
 && cp build/npm/node_modules/socket.io-client/dist/socket.io.min.js referee/server/static/vendor/
EXPOSE 5001 5002
