/** The banking demo is deterministic: same seed → identical table contents; another seed differs. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/connect.js';
import { buildBankingDemo } from '../../src/demo/banking/index.js';
import { certificatePool, generateInstitutions } from '../../src/demo/banking/institutions.js';
import { generateMacro } from '../../src/demo/banking/macro.js';
import { Random } from '../../src/demo/banking/random.js';
import { type Backend, testBackends } from '../helpers/backends.js';

const ORDERED_TABLES = {
  institutions: ['cert'],
  financials: ['cert', 'report_date'],
  failures: ['id'],
  macro_series: ['id'],
  macro_observations: ['series_id', 'date'],
} as const;

async function tableHashes(handle: DbHandle): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const [table, order] of Object.entries(ORDERED_TABLES)) {
    let query = handle.db.selectFrom(table as keyof typeof ORDERED_TABLES).selectAll();
    for (const column of order) query = query.orderBy(column as never);
    const rows = await query.execute();
    hashes[table] = `${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`;
  }
  return hashes;
}

async function buildAndHash(backend: Backend, seed: number) {
  const database = await backend.create();
  try {
    await buildBankingDemo(database.writer, { seed, scale: 'small' });
    return await tableHashes(database.writer);
  } finally {
    await database.drop();
  }
}

describe.each(testBackends())('banking demo determinism on $name', (backend) => {
  it('builds identical banking tables from the same seed', { timeout: 180_000 }, async () => {
    const first = await buildAndHash(backend, 42);
    const second = await buildAndHash(backend, 42);
    expect(second).toEqual(first);
    expect(Number(first.failures?.split(':')[0])).toBe(4044);
  });
});

describe('banking demo generators', () => {
  it('differ for a different seed and agree for the same one', () => {
    const institutions = (seed: number) => {
      const root = new Random(seed);
      return generateInstitutions(
        root.fork('institutions'),
        'small',
        certificatePool(root.fork('certs'), 'small'),
      );
    };
    expect(institutions(7)).toEqual(institutions(7));
    expect(institutions(8)).not.toEqual(institutions(7));
    const macro = (seed: number) => generateMacro(new Random(seed).fork('macro')).observations;
    expect(macro(8)).not.toEqual(macro(7));
  });
});
