/**
 * Where the load test's slowest requests wait (docs/performance.md, "The slowest request"):
 *   npx vite-node test/reliability/load-probe.ts -- [--seconds 5] [--runs 3] [--separate]
 * Runs load.test.ts's scenario (the built server with a 2 MiB cache, the 10-connection warm-up,
 * then 100 connections) and prints, per run: each connection's TCP connect and first answer, the
 * kernel's listen counters (overflows, drops, SYN retransmissions), and every 250 ms the server's
 * accept queue and how many of its connections hold unread requests; then, for the slowest
 * answers, how long each waited before the server began it, in it (its access log's
 * `responseTime`) and after. `--separate` drives from a child process instead of this one.
 */
import { execFile, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { drive, nextUrl, URL_CYCLE } from './load-driver.js';
import { buildServer, demoCopy, REPO, spawnServer } from './support.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] as string) : fallback;
};
const SECONDS = Number(arg('--seconds', '5'));
const RUNS = Number(arg('--runs', '3'));

function tcpCounters(): Record<string, number> {
  const [head, values] = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'));
  const names = head?.split(' ') ?? [];
  const numbers = values?.split(' ') ?? [];
  const wanted = ['ListenOverflows', 'ListenDrops', 'TCPSynRetrans', 'TCPReqQFullDrop', 'SyncookiesSent'];
  return Object.fromEntries(wanted.map((name) => [name, Number(numbers[names.indexOf(name)])]));
}

interface Timed {
  id: string;
  /** Epoch ms: the client queued the request, got the whole answer. */
  sent: number;
  done: number;
  first: boolean;
}

interface ProbeResult {
  connectMs: number[];
  firstMs: number[];
  slowest: Timed[];
  max: number;
  p99: number;
  total: number;
}

/** 100 connections for SECONDS, timing each connection's connect and first answer. */
export async function probe(origin: string, seconds: number): Promise<ProbeResult> {
  const connectMs: number[] = [];
  const firstMs: number[] = [];
  const all: Timed[] = [];
  const tag = `p${Date.now() % 100000}-`;
  let i = 0;
  const instance = autocannon({
    url: origin,
    connections: 100,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => {
          const n = i++;
          return { ...request, path: nextUrl(n), headers: { ...request.headers, 'x-request-id': tag + n } };
        },
      },
    ],
    setupClient: (client) => {
      const raw = client as unknown as { _connect(): void; conn: NodeJS.EventEmitter };
      const connect = raw._connect;
      let answered = 0;
      raw._connect = function (this: typeof raw) {
        const from = performance.now();
        connect.call(this);
        this.conn.once('connect', () => connectMs.push(performance.now() - from));
      };
      // Which request each answer is, and when it was queued (wall clock, to match the server's log).
      const queue = (client as unknown as { pipelinedRequests: RequestQueue }).pipelinedRequests;
      const insert = queue.insertRequest.bind(queue);
      const terminate = queue.terminateRequest.bind(queue);
      // One request in flight per connection (no pipelining): the one queued last.
      let pending = { id: '', sent: 0 };
      queue.insertRequest = (req) => {
        const id = /x-request-id: (\S+)/i.exec(req.requestBuffer.toString())?.[1] ?? '';
        pending = { id, sent: Date.now() };
        insert(req);
      };
      queue.terminateRequest = () => {
        const answer = terminate();
        if (answered === 0) firstMs.push(answer.duration);
        all.push({ ...pending, done: Date.now(), first: answered === 0 });
        answered++;
        return answer;
      };
    },
  });
  const result = await instance;
  all.sort((a, b) => b.done - b.sent - (a.done - a.sent));
  return {
    connectMs,
    firstMs,
    slowest: all.slice(0, 5),
    max: result.latency.max,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

interface RequestQueue {
  insertRequest(req: { requestBuffer: Buffer }): void;
  terminateRequest(): { duration: number };
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
};

async function main() {
  const [build, demo] = await Promise.all([buildServer(), demoCopy()]);
  const server = await spawnServer(build.cli, {
    DATABASE_URL: demo.url,
    CACHE_MAX_BYTES: String(2 * 1024 * 1024),
  });
  const slowest: Timed[] = [];
  try {
    await drive(server.origin, { amount: URL_CYCLE }, 10);
    for (let run = 0; run < RUNS; run++) {
      const before = tcpCounters();
      const sampler = sampleQueues(new URL(server.origin).port);
      const result = process.argv.includes('--separate')
        ? await inChild(server.origin, SECONDS)
        : await probe(server.origin, SECONDS);
      console.log(`queues: ${(await sampler()).join(' ')}`);
      const after = tcpCounters();
      const delta = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
      slowest.push(...result.slowest);
      console.log(
        `run ${run + 1}: ${result.total} requests, p99 ${result.p99} ms, max ${result.max} ms; ` +
          `connect p50/max ${pct(result.connectMs, 0.5)}/${pct(result.connectMs, 1)} ms; ` +
          `first answer p50/max ${pct(result.firstMs, 0.5)}/${pct(result.firstMs, 1)} ms; ` +
          `kernel ${JSON.stringify(delta)}`,
      );
    }
  } finally {
    await server.stop();
    demo.cleanup();
  }
  // Where each of the slowest waited: before the server began it, in the server, or after.
  const served = new Map<string, { time: number; responseTime: number }>();
  for (const line of (await server.finalLog).split('\n')) {
    if (!line.includes('"responseTime"')) continue;
    const entry = JSON.parse(line) as { reqId: string; time: number; responseTime: number };
    served.set(entry.reqId, entry);
  }
  for (const s of slowest) {
    const seen = served.get(s.id);
    const began = seen ? seen.time - seen.responseTime : Number.NaN;
    console.log(
      `${s.id}${s.first ? ' (first on its connection)' : ''}: ${s.done - s.sent} ms = ` +
        `${Math.round(began - s.sent)} before the server began it + ${Math.round(seen?.responseTime ?? Number.NaN)} in it + ` +
        `${Math.round(s.done - (seen?.time ?? Number.NaN))} until the client had it`,
    );
  }
}

/**
 * Every 250 ms, from a child process: the listening socket's accept queue, and how many of the
 * server's connections have request bytes it has not read (as `accept/unread`).
 */
function sampleQueues(port: string): () => Promise<string[]> {
  const script = `for i in $(seq 24); do a=$(ss -Hltn "sport = :${port}" | awk '{print $2}'); u=$(ss -Htn state established "sport = :${port}" | awk '$1>0' | wc -l); echo -n "$a/$u "; sleep 0.25; done`;
  const child = execFile('bash', ['-c', script]);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  return () => new Promise((done) => child.once('exit', () => done(out.trim().split(' '))));
}

/** The probe in a child process, so the load generator does not share this event loop. */
function inChild(origin: string, seconds: number): Promise<ProbeResult> {
  return new Promise((done, fail) => {
    const viteNode = join(REPO, 'node_modules/.bin/vite-node');
    const child = fork(viteNode, [import.meta.filename, '--', '--child', origin, String(seconds)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (message) => done(message as ProbeResult));
    child.once('error', fail);
  });
}

if (process.argv.includes('--child')) {
  const at = process.argv.indexOf('--child');
  const result = await probe(process.argv[at + 1] as string, Number(process.argv[at + 2]));
  process.send?.(result);
  process.exit(0);
} else {
  await main();
}
