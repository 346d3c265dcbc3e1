/** `regdata db …`: PostgreSQL administration run with the owner's DATABASE_URL. */
import type { Command } from 'commander';
import type { Config } from '../config.js';
import { openDatabase } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { createReadOnlyRole } from './roles.js';

export function registerDbCommands(program: Command, loadConfig: () => Config): void {
  const db = program.command('db').description('Database administration (PostgreSQL)');
  db.command('create-readonly-role <name>')
    .description(
      'Create or update a login role that can only SELECT (CONNECT, USAGE, SELECT on every table now ' +
        'and later, read-only transactions); give the API DATABASE_READ_URL with this role',
    )
    .option('--password <password>', 'login password (omit for trust/peer/certificate authentication)')
    .action(async (name: string, options: { password?: string }) => {
      const config = loadConfig();
      const handle = openDatabase(config.databaseUrl);
      try {
        if (handle.dialect !== 'postgres') {
          throw new Error(
            'DATABASE_URL is not a postgres:// URL; SQLite needs no role (the API opens it read-only)',
          );
        }
        // Migrate first so the grants cover every table the API reads.
        await migrateToLatest(handle);
        const statements = await createReadOnlyRole(handle, name, { password: options.password ?? null });
        for (const statement of statements) console.log(`${statement};`);
        console.error(
          `regdata: role ${name} can now read; set DATABASE_READ_URL to connect the API as ${name}`,
        );
      } finally {
        await handle.close();
      }
    });
}
