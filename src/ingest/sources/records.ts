/**
 * Turning upstream bytes into records: JSON (BankFind envelopes `{meta, data: [{data: {...}}]}`, plain
 * arrays) or CSV with a header row (BankFind `format=csv` exports, SDI bulk files). Keys are
 * upper-cased so every export style reads the same way.
 */

import { parse } from 'csv-parse/sync';
import { IngestError } from '../core/errors.js';

import { normalizeKeys, type UpstreamRecord } from './values.js';

/** UTF-8 unless that produces replacement characters, then Windows-1252/latin-1 (FFIEC, old CSVs). */
export function decodeText(bytes: Buffer): string {
  const utf8 = bytes.toString('utf8');
  return utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8;
}

export function looksLikeJson(textValue: string): boolean {
  return /^\s*[[{]/.test(textValue);
}

export function parseCsvRecords(textValue: string): UpstreamRecord[] {
  const rows = parse(textValue, {
    columns: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
  }) as Record<string, unknown>[];
  return rows.map(normalizeKeys);
}

export interface BankFindEnvelope {
  meta?: { total?: number };
  data?: unknown[];
}

/** Records of a BankFind JSON page (nested `data[].data`) or a plain JSON array of records. */
export function bankFindJsonRecords(
  json: unknown,
  where: string,
): { records: UpstreamRecord[]; total: number | null } {
  const list = Array.isArray(json) ? json : (json as BankFindEnvelope | null)?.data;
  if (!Array.isArray(list)) throw new IngestError(`${where}: not a BankFind response (no data array)`);
  const records = list.map((item) => {
    const inner = (item as { data?: unknown } | null)?.data;
    const record = inner && typeof inner === 'object' ? inner : item;
    if (!record || typeof record !== 'object')
      throw new IngestError(`${where}: a data element is not an object`);
    return normalizeKeys(record as Record<string, unknown>);
  });
  const total = Array.isArray(json) ? null : ((json as BankFindEnvelope).meta?.total ?? null);
  return { records, total: typeof total === 'number' ? total : null };
}

/** Records of one `--from` input, whatever its format. */
export function recordsOfInput(bytes: Buffer, where: string): UpstreamRecord[] {
  const textValue = decodeText(bytes);
  if (looksLikeJson(textValue)) {
    let json: unknown;
    try {
      json = JSON.parse(textValue);
    } catch (error) {
      throw new IngestError(`${where}: invalid JSON (${(error as Error).message})`);
    }
    return bankFindJsonRecords(json, where).records;
  }
  try {
    return parseCsvRecords(textValue);
  } catch (error) {
    throw new IngestError(`${where}: invalid CSV (${(error as Error).message})`);
  }
}
