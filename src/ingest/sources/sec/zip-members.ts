/** Reads the members of a small ZIP held in memory (adviser `ia*.zip`, 13(f) list archives). */
import { basename } from 'node:path';
import yauzl from 'yauzl';
import { readZipEntry } from '../../core/zip-entry.js';

export interface ZipMember {
  /** Base name of the member. */
  name: string;
  read(): Promise<Buffer>;
}

export async function openZipMembers(bytes: Buffer, label: string): Promise<ZipMember[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  ).catch((error: Error) => {
    throw new Error(`${label} is not a readable ZIP: ${error.message}`);
  });
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', resolve);
    zip.once('error', reject);
    zip.readEntry();
  });
  return entries.map((entry) => ({
    name: basename(entry.fileName),
    read: () => readZipEntry(zip, entry, label),
  }));
}
