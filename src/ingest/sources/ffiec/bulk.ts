/**
 * The FFIEC CDR "Call Reports -- Single Period" bulk ZIP: `FFIEC CDR Call Bulk POR MMDDYYYY.txt`
 * (panel of reporters, one header row) and `FFIEC CDR Call Schedule <CODE> MMDDYYYY[(n of m)].txt`
 * (tab-delimited; row 1 MDRM codes, row 2 descriptions; large schedules split into parts that share
 * IDRSSD but carry different columns, merged here). Latin-1 text, optional quotes, trailing tabs.
 */

import { parse } from 'csv-parse/sync';
import { IngestError } from '../../core/errors.js';

import { readZipMembers } from './zip.js';

export const SCHEDULES = ['RC', 'RCCI', 'RCN', 'RCRI', 'RI', 'RIBI'] as const;

const POR_NAME = /Call Bulk POR (\d{8})\.txt$/i;
const SCHEDULE_NAME = /Call Schedule ([A-Z]+) (\d{8})(?:\s*\((\d+) of (\d+)\))?\.txt$/i;

export interface CallReport {
  /** Quarter-end report date, YYYY-MM-DD. */
  readonly reportDate: string;
  /** IDRSSD → FDIC certificate number (null when the POR gives none). */
  readonly certs: Map<string, number | null>;
  /** IDRSSD → MDRM code → raw cell text, merged over every schedule and part. */
  readonly items: Map<string, Map<string, string>>;
}

function isoFromMmddyyyy(value: string): string {
  return `${value.slice(4, 8)}-${value.slice(0, 2)}-${value.slice(2, 4)}`;
}

function tsv(bytes: Buffer): string[][] {
  return parse(bytes.toString('latin1'), {
    delimiter: '\t',
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    bom: true,
  }) as string[][];
}

function parsePor(bytes: Buffer): Map<string, number | null> {
  const [header, ...rows] = tsv(bytes);
  const columns = (header ?? []).map((h) => h.trim().toUpperCase());
  const idColumn = columns.indexOf('IDRSSD');
  const certColumn = columns.indexOf('FDIC CERTIFICATE NUMBER');
  if (idColumn < 0 || certColumn < 0)
    throw new IngestError('POR file lacks IDRSSD / FDIC Certificate Number');
  const certs = new Map<string, number | null>();
  for (const row of rows) {
    const id = row[idColumn]?.trim();
    if (!id) continue;
    const cert = Number(row[certColumn]?.trim() || '0');
    certs.set(id, Number.isSafeInteger(cert) && cert > 0 ? cert : null);
  }
  return certs;
}

function mergeSchedule(bytes: Buffer, items: Map<string, Map<string, string>>): void {
  const [header, ...rows] = tsv(bytes);
  const codes = (header ?? []).map((h) => h.trim().toUpperCase());
  const idColumn = codes.indexOf('IDRSSD');
  if (idColumn < 0) throw new IngestError('schedule file lacks the IDRSSD column');
  for (const row of rows) {
    const id = row[idColumn]?.trim() ?? '';
    if (!/^\d+$/.test(id)) continue; // the description row (blank IDRSSD cell)
    let record = items.get(id);
    if (!record) {
      record = new Map();
      items.set(id, record);
    }
    codes.forEach((code, i) => {
      const cell = row[i]?.trim() ?? '';
      if (i !== idColumn && code !== '' && cell !== '') record.set(code, cell);
    });
  }
}

export async function readCallReport(zip: Buffer): Promise<CallReport> {
  const wanted = (name: string) =>
    POR_NAME.test(name) ||
    (SCHEDULES as readonly string[]).includes(SCHEDULE_NAME.exec(name)?.[1]?.toUpperCase() ?? '');
  const members = await readZipMembers(zip, wanted);
  const por = members.find((m) => POR_NAME.test(m.name));
  if (!por) throw new IngestError('the ZIP has no "FFIEC CDR Call Bulk POR <date>.txt"');
  const reportDate = isoFromMmddyyyy(POR_NAME.exec(por.name)![1]!);
  const items = new Map<string, Map<string, string>>();
  for (const member of members) {
    const m = SCHEDULE_NAME.exec(member.name);
    if (!m) continue;
    if (isoFromMmddyyyy(m[2]!) !== reportDate)
      throw new IngestError(`${member.name}: another report date than the POR`);
    mergeSchedule(member.bytes, items);
  }
  if (items.size === 0) throw new IngestError(`the ZIP holds none of the schedules ${SCHEDULES.join(', ')}`);
  return { reportDate, certs: parsePor(por.bytes), items };
}
