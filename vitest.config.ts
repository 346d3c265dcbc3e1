import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Timed under load: each runs by itself, after every other file, so that no other test can starve
 * it of CPU (their bounds are on latencies and timeouts).
 */
const RUNS_ALONE = ['test/reliability/ingest-while-serving.test.ts', 'test/reliability/load.test.ts'];

export default defineConfig({
  test: {
    // Probes TEST_DATABASE_URL once: the PostgreSQL half of the suite runs or says why it is skipped.
    globalSetup: ['test/helpers/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: a single one on a 2-core machine. Many files
    // wait on PostgreSQL, child processes and HTTP; a second fork works meanwhile (test/http on 2 cores:
    // 291 s with one fork, 207 s with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts', 'clients/*/test/**/*.test.ts'],
          exclude: RUNS_ALONE,
        },
      },
      ...RUNS_ALONE.map((file, i) => ({
        extends: true as const,
        test: { name: `alone ${i + 1}`, include: [file], sequence: { groupOrder: i + 1 } },
      })),
    ],
  },
});
