/**
 * Opens a Form 13F data set ZIP (either naming scheme: `2023q4_form13f.zip` or
 * `01jun2024-31aug2024_form13f.zip`) and streams its members. Members are found by base name,
 * case-insensitively, because some ZIPs nest them in a subfolder.
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { openZipEntry } from '../../core/zip-entry.js';

export interface DatasetZip {
  /** Upper-case base names of the members present, e.g. `INFOTABLE.TSV`. */
  readonly members: readonly string[];
  has(member: string): boolean;
  /** Uncompressed size of a member in bytes (for progress), 0 when absent. */
  size(member: string): number;
  open(member: string): Promise<Readable>;
  close(): void;
}

export const REQUIRED_MEMBERS = ['SUBMISSION.tsv', 'COVERPAGE.tsv', 'INFOTABLE.tsv'] as const;

/** Opens a data set from a file path or from bytes already read (`name` is used in messages). */
export async function openDatasetZip(source: string | Buffer, name = String(source)): Promise<DatasetZip> {
  const path = name;
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    const done = (error: Error | null, file: yauzl.ZipFile) => (error ? reject(error) : resolve(file));
    if (typeof source === 'string') yauzl.open(source, { lazyEntries: true, autoClose: false }, done);
    else yauzl.fromBuffer(source, { lazyEntries: true }, done);
  }).catch((error: Error) => {
    throw new Error(`${name} is not a readable ZIP: ${error.message}`);
  });
  const entries = await listEntries(zip);
  const missing = REQUIRED_MEMBERS.filter((name) => !entries.has(name.toUpperCase()));
  if (missing.length > 0) {
    zip.close();
    throw new Error(`${path} is not a Form 13F data set: missing ${missing.join(', ')}`);
  }
  return {
    members: [...entries.keys()],
    has: (member) => entries.has(member.toUpperCase()),
    size: (member) => entries.get(member.toUpperCase())?.uncompressedSize ?? 0,
    open: (member) => {
      const entry = entries.get(member.toUpperCase());
      if (!entry) return Promise.reject(new Error(`${path} has no member ${member}`));
      return openZipEntry(zip, entry, path);
    },
    close: () => zip.close(),
  };
}

function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) {
        const name = basename(entry.fileName).toUpperCase();
        // The first occurrence wins; a data set never holds two members with one base name.
        if (!entries.has(name)) entries.set(name, entry);
      }
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/** Recognises both naming schemes; returns a label such as `2023Q4` or `2024-06-01..2024-08-31`. */
export function datasetLabel(fileName: string): string | null {
  const name = basename(fileName).toLowerCase();
  const quarterly = /^(\d{4})q([1-4])_form13f\.zip$/.exec(name);
  if (quarterly) return `${quarterly[1]}Q${quarterly[2]}`;
  const window = /^(\d{2})([a-z]{3})(\d{4})-(\d{2})([a-z]{3})(\d{4})_form13f\.zip$/.exec(name);
  if (window) {
    const month = (m: string) =>
      String('janfebmaraprmayjunjulaugsepoctnovdec'.indexOf(m) / 3 + 1).padStart(2, '0');
    return `${window[3]}-${month(window[2]!)}-${window[1]}..${window[6]}-${month(window[5]!)}-${window[4]}`;
  }
  return null;
}
