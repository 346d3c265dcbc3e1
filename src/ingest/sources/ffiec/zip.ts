/** Reading members of a ZIP held in memory (yauzl), looked up by base name (some ZIPs nest a folder). */

import yauzl from 'yauzl';
import { IngestError } from '../../core/errors.js';
import { readZipEntry } from '../../core/zip-entry.js';

export interface ZipMember {
  readonly name: string;
  readonly bytes: Buffer;
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => (error ? reject(error) : resolve(zip)));
  });
}

/** Every member whose base name `wanted` accepts, with its bytes. */
export async function readZipMembers(
  buffer: Buffer,
  wanted: (baseName: string) => boolean,
): Promise<ZipMember[]> {
  if (buffer.subarray(0, 2).toString('latin1') !== 'PK') {
    throw new IngestError('not a ZIP file (an HTML page instead of the bulk download?)');
  }
  const zip = await openZip(buffer).catch((error: Error) => {
    throw new IngestError(`unreadable ZIP: ${error.message}`);
  });
  const members: ZipMember[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const baseName = entry.fileName.split('/').pop() ?? '';
      if (entry.fileName.endsWith('/') || !wanted(baseName)) return zip.readEntry();
      readZipEntry(zip, entry, 'the bulk ZIP')
        .then((bytes) => {
          members.push({ name: baseName, bytes });
          zip.readEntry();
        })
        .catch(reject);
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  zip.close();
  return members;
}
