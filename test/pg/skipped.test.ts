/**
 * Makes the PostgreSQL half visible in the test report itself: a skipped suite titled with the
 * reason when it does not run, a connectivity check when it does.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresProbe } from '../helpers/backends.js';

const probe = postgresProbe();

if (probe.skipReason || !probe.url) {
  describe.skip(`PostgreSQL backend skipped: ${probe.skipReason}`, () => {
    it('would run every parametrised suite on PostgreSQL too', () => {});
  });
} else {
  const url = probe.url;
  describe('PostgreSQL backend', () => {
    it('is reachable at TEST_DATABASE_URL and at least version 13 (DROP DATABASE … WITH (FORCE))', async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ v: string }>(
          "select current_setting('server_version_num') as v",
        );
        expect(Number(rows[0]?.v)).toBeGreaterThanOrEqual(130000);
      } finally {
        await client.end();
      }
    });
  });
}
