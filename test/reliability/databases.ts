/** A database for a spawned server: the demo copy, as a SQLite file or copied into PostgreSQL. */
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import type { Backend } from '../helpers/backends.js';
import { copySqliteIntoPostgres } from '../helpers/sqlite-to-postgres.js';
import { demoCopy } from './support.js';

export interface ServedDatabase {
  readonly url: string;
  readonly writer: DbHandle;
  cleanup(): Promise<void>;
}

export async function backendDatabase(backend: Backend): Promise<ServedDatabase> {
  if (backend.name === 'sqlite') {
    const copy = await demoCopy();
    const writer = openDatabase(copy.url);
    return {
      url: copy.url,
      writer,
      async cleanup() {
        await writer.close();
        copy.cleanup();
      },
    };
  }
  // The same demo data on PostgreSQL (copied with COPY), so every endpoint of the mix has data.
  const database = await backend.create();
  const copy = await demoCopy();
  try {
    await copySqliteIntoPostgres(copy.url, database.writer);
  } finally {
    copy.cleanup();
  }
  return { url: database.url, writer: database.writer, cleanup: () => database.drop() };
}
