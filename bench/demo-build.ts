/**
 * Times the demo build as a user runs it (`node dist/cli.js demo`, what the first `npm start` does
 * at small scale) into a fresh SQLite file: wall time of each line it logs and in total, and the
 * process's CPU time over all its threads (`process.cpuUsage()` at exit, steadier on a busy
 * machine). The built CLI, because the full-scale build runs a worker thread that only exists
 * compiled (src/demo/side-by-side.ts); `npm run build` first after changing the sources.
 *
 *   npx vite-node bench/demo-build.ts [-- small|full] [runs]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const scale = args[0] === 'full' ? 'full' : 'small';
const runs = Number(args[1] ?? 1);
const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

/** Loaded before the CLI (and its worker threads): the main thread prints the process's CPU time (every thread's) as it exits. */
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent(
  "import { isMainThread } from 'node:worker_threads'; if (isMainThread) process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('cpu ' + u.user + ' ' + u.system + '\\n'); });",
)}`;

async function once(run: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'regdata-demo-bench-'));
  const started = Date.now();
  let last = started;
  let cpu = '';
  try {
    const child = spawn(process.execPath, ['--import', CPU_AT_EXIT, CLI, 'demo', '--scale', scale], {
      env: { ...process.env, DATABASE_URL: join(dir, 'demo.sqlite') },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    for await (const line of createInterface({ input: child.stderr })) {
      if (line.startsWith('cpu ')) {
        cpu = line;
        continue;
      }
      const now = Date.now();
      console.log(`  ${line}  [+${now - last} ms]`);
      last = now;
    }
    const code = await exited;
    if (code !== 0) throw new Error(`regdata demo exited with ${code}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const [user, system] = cpu
    .split(' ')
    .slice(1)
    .map((micros) => Math.round(Number(micros) / 1000));
  console.log(
    `run ${run}: demo ${scale} built in ${Date.now() - started} ms wall, CPU ${(user ?? 0) + (system ?? 0)} ms (user ${user}, system ${system})`,
  );
}

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
for (let run = 1; run <= runs; run++) await once(run);
