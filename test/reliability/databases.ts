/** A database for a spawned server: the demo copy on SQLite, the fixtures on PostgreSQL. */
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { seedFailures } from '../fixtures/failures.js';
import type { Backend } from '../helpers/backends.js';
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
  const database = await backend.create();
  await seedFailures(database.writer);
  return { url: database.url, writer: database.writer, cleanup: () => database.drop() };
}
