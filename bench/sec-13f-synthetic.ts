/**
 * A synthetic Form 13F data set at real scale (~9,000 filings, ~3.8 million INFOTABLE rows) in SEC's
 * exact layout, deterministic for a seed. Row counts per filing follow a heavy-tailed distribution
 * like the real one (most filers hold tens to hundreds of positions, a few hold tens of thousands);
 * it includes 13F-NT notices, both amendment kinds, options, PRN rows and split positions.
 */
import { cusipCheckDigit } from '../src/ingest/sources/sec/official-list.js';
import {
  COLUMNS,
  coverRow,
  type DatasetFiling,
  submissionRow,
  summaryRow,
  writeDatasetZip,
} from './sec-13f-dataset.js';

export interface SyntheticOptions {
  filings: number;
  rows: number;
  securities: number;
  seed: number;
}

export const REAL_SCALE: SyntheticOptions = { filings: 9000, rows: 3_800_000, securities: 24_000, seed: 13 };

function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function cusips(count: number, next: () => number): string[] {
  const out: string[] = [];
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  for (let i = 0; i < count; i += 1) {
    let base = '';
    for (let j = 0; j < 6; j += 1) base += alphabet[Math.floor(next() * alphabet.length)];
    const first8 = `${base}10`;
    out.push(`${first8}${cusipCheckDigit(first8)}`);
  }
  return out;
}

/** Rows per filing: Pareto-like, scaled so the total is `rows`. */
function rowCounts(options: SyntheticOptions, next: () => number): number[] {
  const raw = Array.from({ length: options.filings }, () => 1 / (1 - next()) ** 0.9);
  const scale = options.rows / raw.reduce((a, b) => a + b, 0);
  const counts = raw.map((r) => Math.max(1, Math.round(r * scale)));
  let diff = options.rows - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % counts.length) {
    if (diff > 0 || counts[i]! > 1) {
      counts[i]! += diff > 0 ? 1 : -1;
      diff += diff > 0 ? -1 : 1;
    }
  }
  return counts;
}

function filingOf(index: number, next: () => number): DatasetFiling {
  const cik = String(1_000_000 + index);
  const kind = next();
  const amendment = kind < 0.02 ? 'RESTATEMENT' : kind < 0.03 ? 'NEW HOLDINGS' : undefined;
  const notice = kind > 0.95;
  const day = String(1 + Math.floor(next() * 28)).padStart(2, '0');
  return {
    accession: `${cik.padStart(10, '0')}-26-${String(index).padStart(6, '0')}`,
    cik: next() < 0.5 ? cik.padStart(10, '0') : cik,
    formType: notice ? '13F-NT' : amendment ? '13F-HR/A' : '13F-HR',
    ...(amendment ? { amendmentType: amendment } : {}),
    filingDate: `2026-02-${day}`,
    period: '2025-12-31',
    managerName: `SYNTHETIC CAPITAL MANAGEMENT ${index} LLC`,
    city: 'NEW YORK',
    stateOrCountry: 'NY',
    rows: [],
  };
}

function* infoRows(filings: DatasetFiling[], counts: number[], universe: string[], next: () => number) {
  let sk = 0;
  for (let f = 0; f < filings.length; f += 1) {
    const filing = filings[f]!;
    for (let r = 0; r < counts[f]!; r += 1) {
      // Popularity follows a power law: a few CUSIPs are held by most filers.
      const cusip = universe[Math.floor(universe.length * next() ** 3)]!;
      const kind = next();
      const shares = Math.floor(10 + 1e6 * next() ** 4);
      const value = Math.floor(shares * (5 + 300 * next()));
      sk += 1;
      // biome-ignore format: one value per SEC column
      yield [filing.accession, String(sk), `ISSUER ${cusip.slice(0, 6)} INC`, kind < 0.97 ? 'COM' : 'NOTE 2.5%', cusip,
        kind < 0.5 ? 'BBG000B9XRY4' : '', String(value), String(shares), kind < 0.97 ? 'SH' : 'PRN',
        kind < 0.02 ? 'Call' : kind < 0.03 ? 'Put' : '', kind < 0.9 ? 'SOLE' : 'DFND', '', String(shares), '0', '0'];
    }
  }
}

/** Writes the data set ZIP; returns the number of INFOTABLE rows and filings written. */
export async function writeSyntheticDataset(path: string, options: SyntheticOptions = REAL_SCALE) {
  const next = random(options.seed);
  const universe = cusips(options.securities, next);
  const filings = Array.from({ length: options.filings }, (_, i) => filingOf(i, next));
  // Notices carry no rows: the row total is spread over the reporting filings only.
  const reporting = filings.filter((f) => f.formType !== '13F-NT');
  const counts = rowCounts({ ...options, filings: reporting.length }, next);
  reporting.forEach((f, i) => {
    f.summary = { entryTotal: counts[i]!, valueTotal: 0 };
  });
  const rows = counts.reduce((a, b) => a + b, 0);
  await writeDatasetZip(path, [
    { name: 'SUBMISSION.tsv', header: COLUMNS.SUBMISSION, rows: filings.map(submissionRow) },
    { name: 'COVERPAGE.tsv', header: COLUMNS.COVERPAGE, rows: filings.map(coverRow) },
    {
      name: 'SUMMARYPAGE.tsv',
      header: COLUMNS.SUMMARYPAGE,
      rows: filings.map(summaryRow).filter((row): row is string[] => row !== null),
    },
    { name: 'INFOTABLE.tsv', header: COLUMNS.INFOTABLE, rows: infoRows(reporting, counts, universe, next) },
  ]);
  return { rows, filings: filings.length };
}
