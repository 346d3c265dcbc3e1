/**
 * The ingest guard on `ffiec-call`, read from bulk ZIPs in the recorded layout of
 * test/fixtures/upstream/ffiec (tab-delimited members, zipped by bench/sec-13f-dataset.ts): the POR
 * file and schedule RC with its two header rows. A load replaces the FFIEC-derived financials of
 * its report date. Malformed key: the POR's FDIC certificate number (`12x4`), which leaves the
 * bank's report without a certificate.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Member, writeDatasetZip } from '../../../bench/sec-13f-dataset.js';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { fixture } from '../helpers/upstream.js';
import { guardCases, loader, RECORDS, type SourceSpec } from './cases.js';
import { countRows, expectLoaded, useHarness } from './harness.js';

interface Bank {
  readonly idrssd: number;
  readonly cert: string;
  readonly assets: number;
}

const POR = 'FFIEC CDR Call Bulk POR 06302025.txt';
const RC = 'FFIEC CDR Call Schedule RC 06302025(1 of 2).txt';

/** The recorded file's header line(s), re-used for generated rows. */
function headerOf(name: string, lines: number): string[] {
  return fixture(`ffiec/${name}`).toString('latin1').split(/\r?\n/).slice(0, lines);
}

/** A tab-delimited member from its lines (the first is the header). */
function member(name: string, lines: readonly string[]): Member {
  const [header, ...rows] = lines.map((line) => line.split('\t'));
  return { name, header: header!, rows };
}

async function writeBulk(dir: string, banks: readonly Bank[]): Promise<string[]> {
  const por = banks.map(
    (b) =>
      `${b.idrssd}\t${b.cert}\t0\t0\t0\tGUARD BANK ${b.idrssd}\t1 MAIN ST\tTOWN\tWI\t53946\t051\t7/28/2025`,
  );
  // RCON2170 total assets, RCON2200 deposits (domestic), as an 051 filer reports them.
  const rc = banks.map((b) => `${b.idrssd}\t\t${b.assets}\t${Math.round(b.assets * 0.8)}\t\t`);
  const path = join(dir, 'bulk.zip');
  await writeDatasetZip(path, [
    member(POR, [...headerOf(POR, 1), ...por]),
    member(RC, [...headerOf(RC, 2), ...rc]),
  ]);
  return [path];
}

const banks = (n: number): Bank[] =>
  Array.from({ length: n }, (_, i) => ({
    idrssd: 3_000_000 + i,
    cert: String(30_000 + i),
    assets: 5000 + i,
  }));

const ffiec: SourceSpec<Bank> = {
  source: 'ffiec-call',
  tables: ['financials', 'financial_aggregates'],
  shrinkTable: 'financials',
  records: banks,
  malform: (bank) => ({ ...bank, cert: '12x4' }),
  write: writeBulk,
};

describe.each(testBackends())('ingest guard, ffiec-call, on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  guardCases(ffiec, harness);

  it('FDIC rows of the date are outside its scope: an FFIEC cut never counts them', async () => {
    expectLoaded(await loader(ffiec, harness)(banks(RECORDS)));
    // FDIC serves ten more banks for 2025-06-30; FFIEC's own rows stay the scope of its loads.
    const dir = harness().inputDir('fdic-financials');
    const records = Array.from({ length: 10 }, (_, i) => ({
      data: { CERT: 40_000 + i, REPDTE: '20250630' },
    }));
    writeFileSync(join(dir, 'page.json'), JSON.stringify({ meta: { total: 10 }, data: records }));
    expectLoaded(await harness().ingest('fdic-financials', [join(dir, 'page.json')]));
    const cut = await loader(ffiec, harness)(banks(184));
    expectLoaded(cut);
    expect(cut.summary.removed).toBe(16);
    expect(await countRows(harness().database, 'financials')).toBe(184 + 10);
  });
});
