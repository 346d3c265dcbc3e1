/**
 * A portfolio's holdings records written straight into the answer's bytes (http/json-buffer.ts):
 * each record is its security's pre-encoded start (security-catalogue.ts), then the value, shares,
 * share type, put/call and weight, with the numbers written digit by digit. The same keys, order and
 * numbers as the schema's serialiser gives (test/http/portfolio-pack.test.ts compares them with the
 * positions table's answer), with no object or string per position: the largest portfolio (~12,000
 * positions, 2.4 MB) took ~10 ms as records serialised 64 at a time, and earlier ~15 ms as one
 * hand-concatenated string (a rope of ~100,000 pieces that the socket write had to flatten).
 *
 * Packed portfolios (portfolio-pack.ts) leave out a position whose CUSIP the security master lacks,
 * as the positions table's join does.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import type { JsonBuffer } from '../http/json-buffer.js';
import { MONEY_DECIMALS, moneyCount, PERCENT_DECIMALS, percentCount } from './params.js';
import {
  CUSIP_BYTES,
  type PackedPortfolio,
  PUT_CALLS,
  putCallOf,
  SHARE_TYPES,
  shareTypeOf,
} from './portfolio-pack.js';
import { recordStartText, type SecurityCatalogue, withSecurityNames } from './security-catalogue.js';

const VALUE = Buffer.from('"value":');
const SHARES = Buffer.from(',"shares":');
/** Per share type × put/call code: the members between shares and weight. */
const CODE_MEMBERS = Array.from({ length: SHARE_TYPES.length * PUT_CALLS.length }, (_, code) =>
  Buffer.from(
    `,${JSON.stringify({ share_type: shareTypeOf(code), put_call: putCallOf(code) }).slice(1, -1)},"weight":`,
  ),
);
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_RECORD = 0x7d;

/** Writes a `holdings` array, one record at a time, weights relative to `totalValue`. */
export class HoldingsWriter {
  private first = true;

  constructor(
    private readonly json: JsonBuffer,
    private readonly catalogue: SecurityCatalogue,
    private readonly totalValue: number,
  ) {
    json.char(OPEN);
  }

  /**
   * The record of the catalogue's security `id`, or (id < 0) of a CUSIP the catalogue lacks, named
   * by `unknownStart` (recordStartText's). Value in thousands of USD, unrounded.
   */
  add(id: number, value: number, shares: number, code: number, unknownStart = ''): void {
    const json = this.json;
    if (!this.first) json.char(COMMA);
    this.first = false;
    if (id >= 0) this.catalogue.writeRecordStart(json, id);
    else json.text(unknownStart);
    // As money() and percent() in params.ts round them.
    json.raw(VALUE).scaled(moneyCount(value), MONEY_DECIMALS).raw(SHARES).number(shares);
    json
      .raw(CODE_MEMBERS[code] as Uint8Array)
      .scaled(percentCount(value, this.totalValue), PERCENT_DECIMALS)
      .char(CLOSE_RECORD);
  }

  close(): JsonBuffer {
    return this.json.char(CLOSE_ARRAY);
  }
}

/** The positions' catalogue ids (-1 when lacking), and how many lack one. */
function idsOf(pack: PackedPortfolio, catalogue: SecurityCatalogue) {
  const ids = new Int32Array(pack.count);
  let missing = 0;
  for (let i = 0; i < pack.count; i++) {
    ids[i] = catalogue.idAt(pack.cusipBytes, CUSIP_BYTES * i);
    if ((ids[i] as number) < 0) missing++;
  }
  return { ids, catalogue, missing };
}

/**
 * A packed portfolio's `holdings` array, named from the security master in memory. A position whose
 * CUSIP the master lacks is left out, as the positions table's join does; with `keepUnknown` (an
 * as-of portfolio, resolved from the raw rows) it keeps its record with an empty issuer, so that the
 * answer names every position its total counts.
 */
export async function writePackedHoldings(
  db: Kysely<Database>,
  json: JsonBuffer,
  pack: PackedPortfolio,
  totalValue: number,
  keepUnknown = false,
): Promise<JsonBuffer> {
  const { ids, catalogue } = await withSecurityNames(db, (names) => idsOf(pack, names));
  const { values, shares, codes } = pack;
  const writer = new HoldingsWriter(json, catalogue, totalValue);
  for (let i = 0; i < pack.count; i++) {
    const id = ids[i] as number;
    if (id < 0 && !keepUnknown) continue;
    const unknown =
      id < 0 ? recordStartText({ cusip: pack.cusip(i), issuer: '', title_of_class: null, ticker: null }) : '';
    writer.add(id, values[i] as number, shares[i] as number, codes[i] as number, unknown);
  }
  return writer.close();
}
