/**
 * The derived positions as rows (the shape of the former `positions` table), read back from their
 * packed per-security store (`security_positions`), for tests that check answers and counts against
 * every stored position.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/tables.js';
import {
  codeRank,
  isEquityCode,
  putCallOf,
  SECURITY_POSITIONS,
  shareTypeOf,
  unpackPositions,
} from '../../src/holdings/portfolio-pack.js';
import type { PositionsTable } from '../../src/holdings/tables.js';

export type PositionRow = PositionsTable & { code: number };

/** Every stored position (of `quarter` / `cusip` when given), by quarter, CIK, CUSIP, share type and put/call (null first). */
export async function storedPositions(
  db: Kysely<Database>,
  only: { quarter?: string; cusip?: string; cik?: string } = {},
): Promise<PositionRow[]> {
  let query = db.selectFrom('security_positions').select(['quarter', 'cusip', 'positions']);
  if (only.quarter) query = query.where('quarter', '=', only.quarter);
  if (only.cusip) query = query.where('cusip', '=', only.cusip);
  const rows: PositionRow[] = [];
  for (const { quarter, cusip, positions } of await query.execute()) {
    const pack = unpackPositions(SECURITY_POSITIONS, positions);
    for (let i = 0; i < pack.count; i++) {
      const cik = pack.key(i);
      if (only.cik && cik !== only.cik) continue;
      const code = pack.codes[i] as number;
      // biome-ignore format: one row
      rows.push({ quarter, cik, cusip, share_type: shareTypeOf(code), put_call: putCallOf(code), code,
        value: pack.values[i] as number, shares: pack.shares[i] as number, is_equity: isEquityCode(code) ? 1 : 0 });
    }
  }
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort(
    (a, b) =>
      text(a.quarter, b.quarter) ||
      text(a.cik, b.cik) ||
      text(a.cusip, b.cusip) ||
      codeRank(a.code) - codeRank(b.code),
  );
}

/** How many positions are stored. */
export async function countPositions(db: Kysely<Database>): Promise<number> {
  return (await storedPositions(db)).length;
}
