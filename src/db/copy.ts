/**
 * PostgreSQL COPY for bulk loads (several times faster than multi-row INSERT). Kysely does not
 * expose the pg client behind a transaction, so every pooled client is registered by its backend
 * process id when it connects; `select pg_backend_pid()` run through the caller's executor then
 * names the exact client (the one holding the caller's transaction) to stream COPY through.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Kysely, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from './tables.js';

type Executor = Kysely<Database> | Transaction<Database>;

const clientsByPool = new WeakMap<pg.Pool, Map<number, pg.PoolClient>>();

/** Called by connect.ts for every pool it opens. */
export function trackPoolClients(pool: pg.Pool): void {
  const clients = new Map<number, pg.PoolClient>();
  clientsByPool.set(pool, clients);
  pool.on('connect', (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid) clients.set(pid, client);
  });
  pool.on('remove', (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid) clients.delete(pid);
  });
}

/**
 * The pooled client behind `executor`, or null when it cannot be identified (e.g. behind a
 * transaction-pooling proxy, where the backend pid is not the client's): callers fall back to INSERT.
 */
export async function clientOf(pool: pg.Pool, executor: Executor): Promise<pg.PoolClient | null> {
  const clients = clientsByPool.get(pool);
  if (!clients) return null;
  const result = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(executor);
  return clients.get(Number(result.rows[0]?.pid)) ?? null;
}

/**
 * COPY text format: \N is NULL; backslash, tab, newline and carriage return are escaped; bytes are
 * bytea's hex form (`\x…`, its backslash escaped).
 */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Uint8Array)
    return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (typeof value === 'string') return value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const ROWS_PER_CHUNK = 1000;

function* copyChunks(rows: readonly Record<string, unknown>[], columns: readonly string[]) {
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    let chunk = '';
    const end = Math.min(rows.length, start + ROWS_PER_CHUNK);
    for (let i = start; i < end; i++) {
      const row = rows[i] as Record<string, unknown>;
      chunk += `${columns.map((c) => copyValue(row[c])).join('\t')}\n`;
    }
    yield chunk;
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Streams `rows` into `table` with COPY … FROM STDIN on `client` (inside its current transaction). */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const statement = `copy ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) from stdin`;
  await pipeline(Readable.from(copyChunks(rows, columns)), client.query(copyFrom(statement)));
}
