/**
 * Times the demo build (`regdata demo`, what the first `npm start` does) into a fresh SQLite file:
 * wall and CPU time (process.cpuUsage(), steadier on a busy machine) per part and in total.
 *
 *   npx vite-node bench/demo-build.ts [-- small|full] [runs]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/connect.js';
import { buildDemo, DEFAULT_DEMO_SEED, type DemoScale } from '../src/demo/index.js';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const scale: DemoScale = args[0] === 'full' ? 'full' : 'small';
const runs = Number(args[1] ?? 1);

const cpuMs = (usage: NodeJS.CpuUsage) => Math.round((usage.user + usage.system) / 1000);

async function once(run: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'regdata-demo-bench-'));
  const handle = openDatabase(join(dir, 'demo.sqlite'));
  const started = Date.now();
  const startCpu = process.cpuUsage();
  let stageAt = started;
  let stageCpu = process.cpuUsage();
  try {
    await buildDemo(handle, {
      seed: DEFAULT_DEMO_SEED,
      scale,
      log: (line) => {
        const cpu = cpuMs(process.cpuUsage(stageCpu));
        console.log(`  ${line}  [since last line: wall ${Date.now() - stageAt} ms, CPU ${cpu} ms]`);
        stageAt = Date.now();
        stageCpu = process.cpuUsage();
      },
    });
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const total = process.cpuUsage(startCpu);
  console.log(
    `run ${run}: demo ${scale} built in ${Date.now() - started} ms wall, CPU ${cpuMs(total)} ms (user ${Math.round(total.user / 1000)}, system ${Math.round(total.system / 1000)})`,
  );
}

for (let run = 1; run <= runs; run++) await once(run);
