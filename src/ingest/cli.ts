/**
 * `regdata ingest <source|group> [--from <url|file>]… [--since …] [--json]`: loads one source, or
 * every source of a group (`banking`, `holdings`), each in its own staged, atomic load.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { progressMode } from './core/progress.js';
import { runSource } from './core/run.js';
import { formatSummary, type LoadSummary } from './core/summary.js';
import type { IngestOptions, IngestSource, SourceGroup } from './core/types.js';
import { findSource, GROUPS, INGEST_SOURCES, sourcesOfGroup } from './registry.js';

interface CliOptions {
  from: string[];
  since?: string;
  until?: string;
  series?: string;
  pageSize?: number;
  latest?: number;
  accession?: string;
  cik?: string;
  period?: string;
  filed?: string;
  progress: string;
  json?: boolean;
  allowShrink?: boolean;
  vintages?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function dateOption(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw new InvalidArgumentError('must be a date YYYY-MM-DD');
  return value;
}

function pageSizeOption(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000)
    throw new InvalidArgumentError('must be an integer between 1 and 10000');
  return Number(value);
}

/** The sources a name stands for; with a group, also the sources it skips and why. */
export function resolveTargets(name: string, config: Config, hasFrom: boolean) {
  const single = findSource(name);
  if (single) return { run: [single], skipped: [] as string[] };
  if (!(GROUPS as readonly string[]).includes(name)) {
    const known = [...GROUPS, ...INGEST_SOURCES.map((s) => s.name)].join(', ');
    throw new InvalidArgumentError(`unknown source "${name}"; known: ${known}`);
  }
  if (hasFrom) throw new InvalidArgumentError('--from reads one source; name the source, not a group');
  const run: IngestSource[] = [];
  const skipped: string[] = [];
  for (const source of sourcesOfGroup(name as SourceGroup)) {
    const enabled = source.enabledInGroup ? source.enabledInGroup(config) : true;
    if (enabled === true) run.push(source);
    else skipped.push(`${source.name}: skipped (${enabled === false ? 'disabled' : enabled})`);
  }
  return { run, skipped };
}

function toIngestOptions(options: CliOptions): IngestOptions {
  return {
    from: options.from,
    ...(options.since ? { since: options.since } : {}),
    ...(options.until ? { until: options.until } : {}),
    ...(options.series
      ? {
          series: options.series
            .split(',')
            .map((s) => s.trim().toUpperCase())
            .filter(Boolean),
        }
      : {}),
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.latest ? { latest: options.latest } : {}),
    ...(options.allowShrink ? { allowShrink: true } : {}),
    ...(options.vintages ? { vintages: true } : {}),
    ...(options.accession || options.cik || options.period || options.filed
      ? {
          filing: {
            ...(options.accession ? { accession: options.accession } : {}),
            ...(options.cik ? { cik: options.cik } : {}),
            ...(options.period ? { period: options.period } : {}),
            ...(options.filed ? { filed: options.filed } : {}),
          },
        }
      : {}),
  };
}

async function ingest(name: string, options: CliOptions, config: Config): Promise<boolean> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { run, skipped } = resolveTargets(name, config, options.from.length > 0);
  for (const line of skipped) log(line);
  const handle = openDatabase(config.databaseUrl);
  const summaries: LoadSummary[] = [];
  try {
    await migrateToLatest(handle);
    for (const source of run) {
      const summary = await runSource(source, {
        handle,
        config,
        options: toIngestOptions(options),
        progressMode: progressMode(options.progress, Boolean(process.stderr.isTTY)),
        log,
      });
      summaries.push(summary);
      if (!options.json) console.log(formatSummary(summary));
    }
  } finally {
    await handle.close();
  }
  if (options.json) console.log(JSON.stringify(summaries.length === 1 ? summaries[0] : summaries, null, 2));
  return summaries.every((s) => s.ok);
}

export function registerIngestCommand(program: Command, loadConfig: () => Config): void {
  const names = INGEST_SOURCES.map((s) => `  ${s.name.padEnd(18)} ${s.description}`).join('\n');
  program
    .command('ingest')
    .description('Load a source (or a group: banking, holdings) into the database, atomically')
    .argument('<source>', 'source name or group')
    .option('--from <url|file>', 'read this file or URL instead of the upstream (repeatable)', collect, [])
    .option('--since <date>', 'first report/observation date to load (YYYY-MM-DD)', dateOption)
    .option('--until <date>', 'last report date to load (YYYY-MM-DD)', dateOption)
    .option('--series <ids>', 'FRED: comma-separated series IDs (default: the 12 catalogue series)')
    .option('--vintages', 'fred: also load every ALFRED vintage (real-time periods) of the series, for as_of')
    .option('--page-size <n>', 'rows per upstream request (FDIC BankFind)', pageSizeOption)
    .option('--latest <n>', 'sec-13f: load the newest n data sets from SEC (default 1)', pageSizeOption)
    .option('--accession <number>', 'sec-13f-filing: accession number when the files do not say it')
    .option('--cik <cik>', 'sec-13f-filing: filer CIK for a bare information table')
    .option(
      '--period <date>',
      'sec-13f-filing: period of report (YYYY-MM-DD) for a bare information table',
      dateOption,
    )
    .option(
      '--filed <date>',
      'sec-13f-filing: filing date (YYYY-MM-DD) when the files do not say it',
      dateOption,
    )
    .addOption(
      new Option('--progress <mode>', 'progress output')
        .choices(['auto', 'bar', 'lines', 'none'])
        .default('auto'),
    )
    .option(
      '--allow-shrink',
      'accept a load that removes more served rows than INGEST_MAX_SHRINK_PERCENT allows (a real shrink)',
    )
    .option('--json', 'print the closing summary as JSON on stdout')
    .addHelpText('after', `\nSources:\n${names}\n\nGroups: ${GROUPS.join(', ')}`)
    .action(async (name: string, options: CliOptions) => {
      const ok = await ingest(name, options, loadConfig());
      if (!ok) process.exitCode = 1;
    });
}
