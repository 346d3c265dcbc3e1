import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../../../db/tables.js';

/** A Kysely instance or an open transaction: the derivation joins the caller's transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
