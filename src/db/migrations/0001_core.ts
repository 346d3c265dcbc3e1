import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dataset')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into dataset (id, version, updated_at) values (1, 0, ${new Date().toISOString()})`.execute(
    db,
  );

  await db.schema
    .createTable('sources')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('upstream', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addColumn('rows', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('checksum', 'text')
    .addColumn('is_demo', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sources').execute();
  await db.schema.dropTable('dataset').execute();
}
