/**
 * What one uncached request costs, per URL of the HTTP benchmark's sets (bench/http-urls.ts):
 *   npx vite-node bench/request-cost.ts -- [--db bench/.out/full.sqlite] [--only banks,stats] [--runs 10]
 * Builds the app in this process on the database opened read-only with the response cache off, and
 * runs each URL `--runs` times through `app.inject` after one warm-up. Prints the CPU time of the
 * fastest and the median request (CPU, not wall time: it stays meaningful on a shared machine) and
 * the body size. No server, no sockets: the figure is the request's own work (hooks, validation,
 * queries, rows, serialisation) plus inject's copying of the body, which is noticeable only for
 * multi-megabyte answers. At 10 concurrent connections on one process, p99 ≈ 10–20× this figure.
 */
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { configWith } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { ROOT } from './http-procs.js';
import { urlSets } from './http-urls.js';

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const database = argValue('--db') ?? join(ROOT, 'bench/.out/full.sqlite');
const only = argValue('--only')?.split(',');
const runs = Number(argValue('--runs') ?? 10);

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function main() {
  const handle = openDatabase(database, { readonly: true });
  const app = await buildApp(configWith({ cacheEnabled: false, logLevel: 'warn', databaseUrl: database }), {
    handle,
  });
  await app.ready();
  try {
    console.log(`${'endpoint'.padEnd(18)} status   min ms   median ms      bytes  url`);
    for (const [name, urls] of Object.entries(urlSets(database))) {
      if (only && !only.includes(name)) continue;
      for (const url of urls) {
        await app.inject({ url });
        const times: number[] = [];
        let status = 0;
        let bytes = 0;
        for (let i = 0; i < runs; i++) {
          const started = process.cpuUsage();
          const response = await app.inject({ url });
          times.push(cpuMs(started));
          status = response.statusCode;
          bytes = response.rawPayload.length;
        }
        times.sort((a, b) => a - b);
        const min = (times[0] ?? 0).toFixed(2);
        const median = (times[times.length >> 1] ?? 0).toFixed(2);
        console.log(
          `${name.padEnd(18)} ${status}   ${min.padStart(7)}   ${median.padStart(9)}   ${String(bytes).padStart(8)}  ${url}`,
        );
      }
    }
  } finally {
    await app.close();
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
