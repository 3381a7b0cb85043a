// A worker of bench/crowd_burst.py's audience devices in Node (`--node`): the same JSON-line
// commands and answers as the Python worker (crowd_burst.py, worker_main), for far less CPU per
// device, so that the simulated phones take less of the machine the servers share.
//
// Each device does what the audience page does: it opens /a/<show> from its own loopback address
// (its device cookie), connects /crowd over one websocket speaking Engine.IO 4 and Socket.IO 5
// directly (offering compression, as browsers do), answers the server's pings, notes when its
// phone first shows each open question, and sends its prediction as the page does: a form post
// to /a/<show>/predict with its cookie, on a connection of its own. Times are CLOCK_MONOTONIC
// seconds (process.hrtime), the clock of Python's time.monotonic(), so the orchestrator reads
// them as its own. Needs `ws` (scripts/setup's build/npm: NODE_PATH=build/npm/node_modules).
"use strict";

const http = require("http");
const net = require("net");
const readline = require("readline");
const WebSocket = require("ws");

const CONNECT_TIMEOUT = 60;  // crowd_burst.py's
const QUESTION_TIMEOUT = 30;
const ANSWER_TIMEOUT = 30;
const COOKIE = "ref_aud";

const argv = process.argv.slice(2);
function arg(name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
}
const url = new URL(arg("--url"));
const show = arg("--show");
const first = Number(arg("--first", "0"));
const count = Number(arg("--count", "0"));
const concurrency = Number(arg("--connect-concurrency", "25"));

const now = () => Number(process.hrtime.bigint()) / 1e9;
const sleep = (s) => new Promise((resolve) => setTimeout(resolve, Math.max(0, s * 1000)));
const reply = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const addressOf = (index) => `127.10.${Math.floor(index / 250)}.${(index % 250) + 1}`;

// BENCH_KEEPALIVE=1: each device keeps its page's connection for its posts (a phone whose
// connection is still open); by default each post opens its own, as after the page's went idle.
const KEEPALIVE = process.env.BENCH_KEEPALIVE === "1";

function request(method, path, local, headers, body, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, localAddress: local,
                               agent: KEEPALIVE ? agent : false,
                               headers: { ...headers, ...(body ? { "Content-Length": Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      });
    req.setTimeout(ANSWER_TIMEOUT * 1000, () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

// A form post on a connection of its own, spoken directly over a TCP socket: Node's http client
// cost the devices about a fifth of a millisecond of CPU more a post (9.5 against 7.3 s for 11,489).
function postOnce(path, local, headers, body) {
  return new Promise((resolve, reject) => {
    const head = [`POST ${path} HTTP/1.1`, `Host: ${url.host}`, "Connection: close",
                  ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
                  `Content-Length: ${Buffer.byteLength(body)}`, "", ""].join("\r\n");
    const sock = net.connect({ host: url.hostname, port: Number(url.port), localAddress: local });
    const chunks = [];
    sock.setTimeout(ANSWER_TIMEOUT * 1000, () => sock.destroy(new Error("timeout")));
    sock.on("connect", () => sock.end(head + body));
    sock.on("data", (c) => chunks.push(c));
    sock.on("error", reject);
    sock.on("close", () => {
      const text = Buffer.concat(chunks).toString();
      const split = text.indexOf("\r\n\r\n");
      const status = Number(text.slice(9, 12));
      if (!text.startsWith("HTTP/1.1 ") || split < 0) reject(new Error(`not an HTTP answer: ${text.slice(0, 40)}`));
      else resolve({ status, body: text.slice(split + 4) });
    });
  });
}

class Device {
  constructor(index) {
    this.index = index;
    this.local = addressOf(index);
    this.device = "";
    this.ws = null;
    this.connected = false;
    this.opened = {};  // question id -> when this phone first showed it open
    this.waiting = [];
    this.agent = KEEPALIVE ? new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: this.local }) : null;
  }

  async openPage() {
    const res = await request("GET", `/a/${show}`, this.local, {}, null, this.agent);
    const cookie = [].concat(res.headers["set-cookie"] || []).map((c) => c.split(";")[0])
      .find((c) => c.startsWith(COOKIE + "="));
    if (res.status !== 200 || !cookie) throw new Error(`audience page: HTTP ${res.status}, cookie ${!!cookie}`);
    this.device = cookie.slice(COOKIE.length + 1);
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${url.host}/socket.io/?EIO=4&transport=websocket&lane=public`,
                               { localAddress: this.local, headers: { Cookie: `${COOKIE}=${this.device}` },
                                 perMessageDeflate: true });
      this.ws = ws;
      const timer = setTimeout(() => { ws.terminate(); reject(new Error("connect timeout")); }, CONNECT_TIMEOUT * 1000);
      ws.on("message", (data) => {
        const text = data.toString();
        if (text[0] === "0") ws.send("40/crowd," + JSON.stringify({ show }));
        else if (text === "2") ws.send("3");
        else if (text.startsWith("40/crowd,")) { this.connected = true; clearTimeout(timer); resolve(); }
        else if (text.startsWith("44/crowd,")) { clearTimeout(timer); reject(new Error("refused " + text.slice(9, 120))); }
        else if (text.startsWith("42/crowd,")) this.receive(JSON.parse(text.slice(9)));
      });
      ws.on("close", () => { this.connected = false; });
      ws.on("error", (err) => { clearTimeout(timer); reject(err); });
    });
  }

  receive([event, payload]) {
    if (event !== "crowd" || !payload) return;
    const t = now();
    for (const q of payload.questions || []) {
      if (q.state === "open" && !(q.id in this.opened)) this.opened[q.id] = t;
    }
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((wake) => wake());
  }

  async question(qid, timeout) {
    const deadline = now() + timeout;
    while (!(qid in this.opened)) {
      const left = deadline - now();
      if (left <= 0) return null;
      await Promise.race([new Promise((wake) => this.waiting.push(wake)), sleep(left)]);
    }
    return this.opened[qid];
  }

  disconnect() {
    if (this.ws) this.ws.terminate();
    this.connected = false;
  }

  async predict(qid, option, kind) {
    const t0 = now();
    let ack;
    try {
      const form = new URLSearchParams({ question: qid, option: String(option) }).toString();
      const headers = { Cookie: `${COOKIE}=${this.device}`, "Content-Type": "application/x-www-form-urlencoded" };
      const res = KEEPALIVE ? await request("POST", `/a/${show}/predict`, this.local, headers, form, this.agent)
                            : await postOnce(`/a/${show}/predict`, this.local, headers, form);
      ack = JSON.parse(res.body);
    } catch (err) {
      return [this.index, kind, option, t0, now(), "timeout", err.name || "Error", null, null];
    }
    const t1 = now();
    if (ack && ack.ok) return [this.index, kind, option, t0, t1, "ok", "", ack.prediction.option, !!ack.prediction.again];
    return [this.index, kind, option, t0, t1, "refused", (ack && ack.error && ack.error.code) || "?", null, null];
  }
}

async function join(devices) {
  const pageMs = [], connectMs = [], errors = [];
  let connectedAt = now();
  let next = 0;
  async function lane() {
    while (next < devices.length) {
      const d = devices[next++];
      const t0 = now();
      try {
        await d.openPage();
      } catch (err) { errors.push(`page ${err.message}`); continue; }
      const tPage = now();
      pageMs.push(Math.round((tPage - t0) * 1e6) / 1e3);
      try {
        await d.connect();
      } catch (err) { errors.push(`socket ${err.message}`); continue; }
      const t1 = now();
      connectMs.push(Math.round((t1 - tPage) * 1e6) / 1e3);
      connectedAt = Math.max(connectedAt, t1);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { pageMs, connectMs, errors, connectedAt };
}

async function burst(devices, cmd) {
  const records = [];
  let held = 0;
  const n = cmd.options;
  async function one(d, at, option, extra) {
    await sleep(at - now());
    const shown = await d.question(cmd.question, QUESTION_TIMEOUT);
    if (shown === null) {
      records.push([d.index, "first", option, at, now(), "timeout", "no_question", null, null]);
      return;
    }
    if (shown > at) held += 1;
    records.push(await d.predict(cmd.question, option, "first"));
    if (extra === "resend") records.push(await d.predict(cmd.question, option, "resend"));
    else if (extra === "reconnect") {
      d.disconnect();
      try {
        await d.connect();
      } catch (err) {
        const t = now();
        records.push([d.index, "reconnect", option, t, t, "timeout", `reconnect ${err.message}`, null, null]);
        return;
      }
      records.push(await d.predict(cmd.question, (option + 1) % n, "reconnect"));
    }
  }
  const plans = [];
  for (const d of devices) {
    const at = cmd.start + Math.random() * cmd.window;
    const option = Math.floor(Math.random() * n);
    const roll = Math.random();
    const extra = roll < cmd.resend ? "resend" : roll < cmd.resend + cmd.reconnect ? "reconnect" : null;
    if (d.connected) plans.push(one(d, at, option, extra));
  }
  await Promise.all(plans);
  const devicesById = {};
  for (const d of devices) if (d.device) devicesById[d.index] = d.device;
  return { records, held, shown: devices.map((d) => d.opened[cmd.question] ?? null), devices: devicesById };
}

async function main() {
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  reply({ ready: true });
  const go = await lines.next();
  if (go.done || JSON.parse(go.value).cmd !== "go") return;
  const tGo = now();
  const devices = Array.from({ length: count }, (_, i) => new Device(first + i));
  const joined = await join(devices);
  reply({ connected: devices.filter((d) => d.connected).length, failed: joined.errors.length,
          errors: joined.errors.slice(0, 5), page_ms: joined.pageMs, connect_ms: joined.connectMs, go: tGo,
          connected_at: joined.connectedAt });
  for (;;) {
    const line = await lines.next();
    if (line.done) break;
    const cmd = JSON.parse(line.value);
    if (cmd.cmd === "burst") reply(await burst(devices, cmd));
    else if (cmd.cmd === "quit") break;
  }
  devices.forEach((d) => d.disconnect());
  reply({ bye: true });
  process.exit(0);
}

main().catch((err) => { process.stderr.write(String(err && err.stack || err) + "\n"); process.exit(1); });
