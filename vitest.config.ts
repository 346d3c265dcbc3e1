import { defineConfig } from 'vitest/config';

/** Timed under load: runs alone, after every other file, so other tests cannot starve it of CPU. */
const RUNS_ALONE = ['test/reliability/load.test.ts'];

export default defineConfig({
  test: {
    // Probes TEST_DATABASE_URL once: the PostgreSQL half of the suite runs or says why it is skipped.
    globalSetup: ['test/helpers/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
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
      { extends: true, test: { name: 'alone', include: RUNS_ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
