/** The banking demo is deterministic: same seed → identical table contents; another seed differs. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/connect.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import {
  certificatePool,
  generateInstitutions,
  INSTITUTION_COUNTS,
} from '../../src/demo/banking/institutions.js';
import { generateMacro } from '../../src/demo/banking/macro.js';
import { Random } from '../../src/demo/banking/random.js';
import { testBackends } from '../helpers/backends.js';

const ORDERED_TABLES = {
  institutions: ['cert'],
  financials: ['cert', 'report_date'],
  failures: ['id'],
  macro_series: ['id'],
  macro_observations: ['series_id', 'date'],
} as const;

/** Row contents in a deterministic order; `failures.id` is a surrogate key (PostgreSQL identities keep counting). */
async function tableHashes(handle: DbHandle): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const [table, order] of Object.entries(ORDERED_TABLES)) {
    let query = handle.db.selectFrom(table as keyof typeof ORDERED_TABLES).selectAll();
    for (const column of order) query = query.orderBy(column as never);
    const rows = (await query.execute()).map((row) => {
      const { id, ...rest } = row as Record<string, unknown>;
      return table === 'failures' ? rest : { id, ...rest };
    });
    hashes[table] = `${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`;
  }
  return hashes;
}

/** Few institutions keep the test fast; every generator and the whole write path still run. */
const COUNTS = { active: 120, inactive: 40 };

async function buildAndHash(handle: DbHandle, seed: number) {
  await buildBankingDemoWith(handle, { seed, scale: 'small' }, COUNTS);
  return tableHashes(handle);
}

describe.each(testBackends())('banking demo determinism on $name', (backend) => {
  it('same seed → identical banking tables, even when rebuilt over another seed’s data; another seed differs', {
    timeout: 120_000,
  }, async () => {
    const first = await backend.create();
    const second = await backend.create();
    try {
      const a = await buildAndHash(first.writer, 42);
      expect(a.failures?.startsWith('4044:')).toBe(true);
      expect(a.institutions?.startsWith('160:')).toBe(true);
      const other = await buildAndHash(second.writer, 43);
      for (const table of ['institutions', 'financials', 'failures', 'macro_observations']) {
        expect(other[table], table).not.toBe(a[table]);
      }
      // The other database, rebuilt with the first seed over seed 43's rows, equals the first.
      expect(await buildAndHash(second.writer, 42)).toEqual(a);
    } finally {
      await first.drop();
      await second.drop();
    }
  });
});

describe('banking demo generators at the real small scale', () => {
  it('agree for the same seed and differ for another', () => {
    const institutions = (seed: number) => {
      const root = new Random(seed);
      const certs = certificatePool(root.fork('certs'), 'small');
      return generateInstitutions(root.fork('institutions'), INSTITUTION_COUNTS.small, certs);
    };
    const seven = institutions(7);
    expect(seven).toHaveLength(6000);
    expect(institutions(7)).toEqual(seven);
    expect(institutions(8)).not.toEqual(seven);
    const macro = (seed: number) => generateMacro(new Random(seed).fork('macro')).observations;
    expect(macro(8)).not.toEqual(macro(7));
  });
});
