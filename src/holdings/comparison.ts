/**
 * Overlap and compare (SPEC §3) over what the managers hold per security (held-by-security.ts): one
 * walk over the securities any of them holds gives the similarity matrix, the shared positions and
 * the counts. No SQL here. The answers run to megabytes (the 5 largest managers' overlap: ~41,000
 * holder entries): their shared positions are written straight into the answer (http/json-buffer.ts)
 * from the catalogue's encoded record starts and the numbers, as portfolios are
 * (portfolio-records.ts), with no object or string per position. Numbers are written as money() and
 * percent() round them and JSON.stringify would print them (JsonBuffer.scaled).
 */
import type { JsonBuffer } from '../http/json-buffer.js';
import type { ManagerSummary } from './comparison.queries.js';
import { type HeldBySecurity, holderCount } from './held-by-security.js';
import { MONEY_DECIMALS, money, moneyCount, PERCENT_DECIMALS, percentCount } from './params.js';

/** The shared positions of an answer: how many, and a writer of them as a JSON array. */
export interface SharedPositions {
  readonly count: number;
  write(json: JsonBuffer): JsonBuffer;
}

const member = (name: string) => Buffer.from(`,${JSON.stringify(name)}:`);
const HOLDER_COUNT = Buffer.from('"holder_count":');
const HOLDERS = member('holders');
const SHARES = member('shares');
const VALUE1 = Buffer.from('"value1":');
const [VALUE2, SHARES1, SHARES2, WEIGHT1, WEIGHT2] = [
  'value2',
  'shares1',
  'shares2',
  'weight1',
  'weight2',
].map(member) as [Buffer, Buffer, Buffer, Buffer, Buffer];
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_RECORD = 0x7d;

/** Writes thousands of USD as money() rounds them. */
const writeMoney = (json: JsonBuffer, value: number) => json.scaled(moneyCount(value), MONEY_DECIMALS);
/** Writes part / whole in percent as percent() rounds it. */
const writePercent = (json: JsonBuffer, part: number, whole: number) =>
  json.scaled(percentCount(part, whole), PERCENT_DECIMALS);

/** `count` records written by `record`, as a JSON array. */
function writeArray(json: JsonBuffer, count: number, record: (n: number) => void): JsonBuffer {
  json.char(OPEN_ARRAY);
  for (let n = 0; n < count; n++) {
    if (n > 0) json.char(COMMA);
    record(n);
  }
  return json.char(CLOSE_ARRAY);
}

/** Slots ordered by `order`, ties by CUSIP. */
function byCusipAfter(
  held: HeldBySecurity,
  slots: number[],
  order: (a: number, b: number) => number,
): number[] {
  const cusip = (slot: number) => held.catalogue.entry(held.ids[slot] as number).cusip;
  return slots.sort((a, b) => {
    const first = order(a, b);
    if (first !== 0) return first;
    const x = cusip(a);
    const y = cusip(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function summary(m: ManagerSummary): ManagerSummary {
  return { cik: m.cik, name: m.name, position_count: m.position_count, total_value: m.total_value };
}

/** Bits set in each mask of up to 5 managers. */
const POPCOUNT = Array.from({ length: 32 }, (_, mask) => holderCount(mask));

export function overlapOf(managers: readonly ManagerSummary[], held: HeldBySecurity) {
  const k = managers.length;
  // How many securities each combination of holders (a bit mask) holds: the similarity matrix sums
  // them, so the walk over the securities does one increment each.
  const perMask = new Int32Array(1 << k);
  const shared: number[] = [];
  for (let slot = 0; slot < held.slots; slot++) {
    const bits = held.holders[slot] as number;
    perMask[bits] = (perMask[bits] as number) + 1;
    if ((POPCOUNT[bits] as number) >= 2) shared.push(slot);
  }
  const count = (i: number, j: number) => {
    let n = 0;
    for (let mask = 0; mask < perMask.length; mask++)
      if ((mask & (1 << i)) !== 0 && (mask & (1 << j)) !== 0) n += perMask[mask] as number;
    return n;
  };
  const holdersOf = new Int32Array(held.slots);
  const totals = new Float64Array(held.slots);
  for (const slot of shared) {
    const bits = held.holders[slot] as number;
    holdersOf[slot] = POPCOUNT[bits] as number;
    for (let i = 0; i < k; i++)
      if ((bits & (1 << i)) !== 0) totals[slot] = (totals[slot] as number) + held.value(slot, i);
  }
  byCusipAfter(
    held,
    shared,
    (a, b) =>
      (holdersOf[b] as number) - (holdersOf[a] as number) || (totals[b] as number) - (totals[a] as number),
  );
  // Per manager, `{"cik":…,"value":`, the start of its entry in a position's holders.
  const holderStarts = managers.map((m) => Buffer.from(`{"cik":${JSON.stringify(m.cik)},"value":`));
  const order: number[] = [];
  const values: number[] = [];
  const writePosition = (json: JsonBuffer, n: number) => {
    const slot = shared[n] as number;
    const bits = held.holders[slot] as number;
    // Holders by value descending, then CIK: an insertion sort of at most five.
    order.length = 0;
    values.length = 0;
    for (let i = 0; i < k; i++) {
      if ((bits & (1 << i)) === 0) continue;
      const value = held.value(slot, i);
      const cik = (managers[i] as ManagerSummary).cik;
      let at = order.length;
      // biome-ignore format: one condition
      while (at > 0 && ((values[at - 1] as number) < value || (values[at - 1] === value && (managers[order[at - 1] as number] as ManagerSummary).cik > cik))) at--;
      order.splice(at, 0, i);
      values.splice(at, 0, value);
    }
    held.catalogue
      .writeIdentityStart(json, held.ids[slot] as number)
      .raw(HOLDER_COUNT)
      .number(order.length);
    json.raw(HOLDERS).char(OPEN_ARRAY);
    for (let h = 0; h < order.length; h++) {
      const i = order[h] as number;
      if (h > 0) json.char(COMMA);
      writeMoney(json.raw(holderStarts[i] as Buffer), values[h] as number);
      json.raw(SHARES).number(held.sharesOf(slot, i)).char(CLOSE_RECORD);
    }
    json.char(CLOSE_ARRAY).char(CLOSE_RECORD);
  };
  // matrix[i][j]: distinct securities managers i and j both hold; the diagonal, i's own.
  const matrix: Record<string, Record<string, number>> = {};
  managers.forEach((a, i) => {
    const row: Record<string, number> = {};
    managers.forEach((b, j) => {
      row[b.cik] = count(i, j);
    });
    matrix[a.cik] = row;
  });
  return {
    managers: managers.map(summary),
    shared: {
      count: shared.length,
      write: (json) => writeArray(json, shared.length, (n) => writePosition(json, n)),
    } satisfies SharedPositions,
    similarity_matrix: matrix,
  };
}

export function compareManagers(managers: readonly ManagerSummary[], held: HeldBySecurity) {
  const [m1, m2] = managers as [ManagerSummary, ManagerSummary];
  let only1 = 0;
  let only2 = 0;
  const shared: number[] = [];
  const sums = new Float64Array(held.slots);
  for (let slot = 0; slot < held.slots; slot++) {
    const bits = held.holders[slot] as number;
    if (bits === 3) {
      shared.push(slot);
      sums[slot] = money(held.value(slot, 0)) + money(held.value(slot, 1));
    } else if (bits === 1) only1++;
    else if (bits === 2) only2++;
  }
  byCusipAfter(held, shared, (a, b) => (sums[b] as number) - (sums[a] as number));
  const writePosition = (json: JsonBuffer, n: number) => {
    const slot = shared[n] as number;
    const v1 = held.value(slot, 0);
    const v2 = held.value(slot, 1);
    held.catalogue.writeIdentityStart(json, held.ids[slot] as number).raw(VALUE1);
    writeMoney(json, v1).raw(VALUE2);
    writeMoney(json, v2).raw(SHARES1).number(held.sharesOf(slot, 0));
    json.raw(SHARES2).number(held.sharesOf(slot, 1)).raw(WEIGHT1);
    writePercent(json, v1, m1.total_value).raw(WEIGHT2);
    writePercent(json, v2, m2.total_value).char(CLOSE_RECORD);
  };
  const union = shared.length + only1 + only2;
  return {
    head: {
      manager1: summary(m1),
      manager2: summary(m2),
      shared_count: shared.length,
      only_in_1_count: only1,
      only_in_2_count: only2,
      jaccard: union === 0 ? 0 : Math.round((shared.length / union) * 1e6) / 1e6,
    },
    shared: {
      count: shared.length,
      write: (json) => writeArray(json, shared.length, (n) => writePosition(json, n)),
    } satisfies SharedPositions,
  };
}
