/**
 * QuarterHolders (the changes pass's per-security grouping) on each backend, with more changes than
 * one 65,536-entry chunk: every security's packed holders are its changes in the holders page's order
 * (value after descending, then CIK) with their figures, and its counts are those of its statuses,
 * all checked against a plain sort of the same changes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SECURITY_HOLDERS, unpackChanges } from '../../src/holdings/change-pack.js';
import { CHANGE_STATUSES, type PositionChange } from '../../src/holdings/tables.js';
import { insertPackedRows } from '../../src/ingest/sources/sec/holdings/derive/background-packing.js';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';
import type { EquityChanges } from '../../src/ingest/sources/sec/holdings/derive/equity-changes.js';
import { packHolders, QuarterHolders } from '../../src/ingest/sources/sec/holdings/derive/quarter-holders.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

const MANAGERS = ['0000000007', '0000000042', '0001067983'];
const PER_MANAGER = 25_000;

/**
 * Change k of manager m: values repeat, within a CUSIP too (every third CUSIP's holders all tie,
 * broken by CIK), every status occurs.
 */
function changeOf(m: number, k: number): PositionChange & { cik: string; code: number } {
  const code = (k + m) % CHANGE_STATUSES.length;
  const value = ((k * 7919 + (k % 3 === 0 ? 0 : m * 31)) % 1000) + 0.125;
  return {
    cik: MANAGERS[m] as string,
    code,
    cusip: `C${String(k).padStart(8, '0')}`,
    status: CHANGE_STATUSES[code] as PositionChange['status'],
    shares_before: k + 0.5,
    shares_after: 2 * k,
    value_before: value / 2,
    value_after: value,
    weight_before: 0,
    weight_after: value / 1000,
    split_factor: null,
  };
}

/** Changes as the comparison hands them over: columns, CUSIPs numbered by `numbers`. */
function columnsOf(changes: readonly ReturnType<typeof changeOf>[], numbers: CusipNumbers): EquityChanges {
  const column = (of: (c: ReturnType<typeof changeOf>) => number) => Float64Array.from(changes, of);
  return {
    count: changes.length,
    cusips: Int32Array.from(changes, (c) => numbers.numberOf(c.cusip)),
    status: Uint8Array.from(changes, (c) => c.code),
    sharesBefore: column((c) => c.shares_before),
    filedSharesBefore: column((c) => c.shares_before),
    sharesAfter: column((c) => c.shares_after),
    valueBefore: column((c) => c.value_before),
    valueAfter: column((c) => c.value_after),
    weightBefore: column((c) => c.weight_before),
    weightAfter: column((c) => c.weight_after),
    splitFactor: column(() => Number.NaN),
  };
}

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

describe.each(testBackends())('QuarterHolders on $name', (backend) => {
  it('writes each security its holders in page order and its counts, across chunks', {
    timeout: 60_000,
  }, async () => {
    database = await backend.create();
    const { writer } = database;
    const numbers = new CusipNumbers();
    const holders = new QuarterHolders(numbers);
    const all: ReturnType<typeof changeOf>[] = [];
    MANAGERS.forEach((cik, m) => {
      // One change per CUSIP and manager, as the comparison gives.
      const changes = Array.from({ length: PER_MANAGER }, (_, k) => changeOf(m, k));
      holders.add(cik, columnsOf(changes, numbers));
      all.push(...changes);
    });
    expect(all.length).toBeGreaterThan(65_536);
    const securities = await writer.db.transaction().execute(async (trx) => {
      const columns = holders.take('2026-Q3');
      await insertPackedRows(writer, trx, packHolders(columns));
      return columns.cusips.length;
    });
    expect(securities).toBe(PER_MANAGER);

    const expected = new Map<string, ReturnType<typeof changeOf>[]>();
    for (const change of all) expected.set(change.cusip, [...(expected.get(change.cusip) ?? []), change]);
    const packed = await writer.db
      .selectFrom('holders_by_security')
      .selectAll()
      .where('quarter', '=', '2026-Q3')
      .execute();
    const counts = await writer.db
      .selectFrom('security_changes')
      .selectAll()
      .where('quarter', '=', '2026-Q3')
      .execute();
    expect(packed.length).toBe(PER_MANAGER);
    const countsOf = new Map(counts.map((row) => [row.cusip, row]));
    for (const row of packed) {
      const want = [...(expected.get(row.cusip) ?? [])].sort(
        (a, b) => b.value_after - a.value_after || (a.cik < b.cik ? -1 : 1),
      );
      const got = unpackChanges(SECURITY_HOLDERS, row.holders);
      expect(got.count).toBe(want.length);
      want.forEach((change, i) => {
        expect(got.key(i)).toBe(change.cik);
        expect(got.status(i)).toBe(change.status);
        expect([0, 1, 2, 3, 4].map((c) => got.column(c)[i])).toEqual([
          change.shares_before,
          change.shares_after,
          change.value_before,
          change.value_after,
          change.weight_after,
        ]);
      });
      const count = (status: string) => want.filter((c) => c.status === status).length;
      expect(countsOf.get(row.cusip)).toMatchObject({
        new_count: count('new'),
        added_count: count('added'),
        reduced_count: count('reduced'),
        unchanged_count: count('unchanged'),
        sold_out_count: count('sold_out'),
      });
    }
    // Written once: its columns are gone.
    expect(() => holders.add('0009999999', columnsOf(all.slice(0, 1), numbers))).toThrow(/once/);
  });

  it('refuses managers out of CIK order and CIKs of another width', () => {
    const numbers = new CusipNumbers();
    const holders = new QuarterHolders(numbers);
    const none = columnsOf([], numbers);
    holders.add('0000000042', none);
    expect(() => holders.add('0000000007', none)).toThrow(/CIK order/);
    expect(() => holders.add('42', none)).toThrow(/10 characters/);
  });
});
