/** Reading members of a ZIP held in memory (yauzl), looked up by base name (some ZIPs nest a folder). */

import yauzl from 'yauzl';
import { IngestError } from '../../core/errors.js';

export interface ZipMember {
  readonly name: string;
  readonly bytes: Buffer;
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => (error ? reject(error) : resolve(zip)));
  });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
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
      readEntry(zip, entry)
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
