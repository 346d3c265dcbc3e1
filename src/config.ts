/**
 * The one place that reads the environment. Every setting is declared once in SETTINGS (name,
 * default, description, parser); README's configuration table is checked against this list.
 */

export type Services = 'all' | 'banking' | 'holdings';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly databaseReadUrl: string | null;
  readonly dbPoolSize: number;
  readonly dbStatementTimeoutMs: number;
  readonly logLevel: string;
  readonly logFormat: 'auto' | 'json' | 'pretty';
  readonly services: Services;
  readonly cacheControl: string;
  readonly cacheEnabled: boolean;
  readonly cacheMaxBytes: number;
  readonly readIndexMaxBytes: number;
  readonly tuneMemory: boolean;
  readonly versionPollMs: number;
  readonly rateLimitMax: number;
  readonly rateLimitWindowSeconds: number;
  readonly fdicApiUrl: string;
  readonly fdicApiKey: string | null;
  readonly fredApiUrl: string;
  readonly fredApiKey: string | null;
  readonly fredGraphUrl: string;
  readonly fdicFinancialsStart: string;
  readonly ffiecBulkUrl: string | null;
  readonly ingestMaxRetries: number;
  readonly ingestRetryBaseMs: number;
  readonly ingestRequestIntervalMs: number;
  readonly ingestTimeoutMs: number;
  readonly ingestSwapPauseMs: number;
  readonly ingestMaxRejectedPercent: number;
  readonly ingestMaxShrinkPercent: number;
  readonly secUserAgent: string | null;
  readonly secBaseUrl: string;
  readonly entityOverridesFile: string | null;
  readonly exportDir: string | null;
}

export interface SettingDefinition {
  readonly env: string;
  readonly key: keyof Config;
  readonly default: string | null;
  readonly description: string;
  readonly parse: (raw: string) => unknown;
}

export class ConfigError extends Error {}

const text = (raw: string) => raw;
const optionalText = (raw: string) => (raw.trim() === '' ? null : raw);

function integerIn(min: number, max: number) {
  return (raw: string) => {
    if (!/^\d+$/.test(raw.trim())) throw new Error(`must be an integer between ${min} and ${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`must be an integer between ${min} and ${max}`);
    return value;
  };
}

function percent(raw: string): number {
  const value = Number(raw.trim());
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || value > 100)
    throw new Error('must be a percentage between 0 and 100');
  return value;
}

function boolean(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new Error('must be true or false');
}

function oneOf<T extends string>(...allowed: T[]) {
  return (raw: string) => {
    const value = raw.trim().toLowerCase();
    if (!(allowed as string[]).includes(value)) throw new Error(`must be one of ${allowed.join(', ')}`);
    return value as T;
  };
}

export const SETTINGS: readonly SettingDefinition[] = [
  {
    env: 'PORT',
    key: 'port',
    default: '3000',
    description: 'TCP port the API listens on',
    parse: integerIn(0, 65535),
  },
  { env: 'HOST', key: 'host', default: '0.0.0.0', description: 'Interface the API binds to', parse: text },
  {
    env: 'DATABASE_URL',
    key: 'databaseUrl',
    default: './data/regdata.sqlite',
    description:
      'SQLite file path or `file:` URL, or a `postgres://` URL (owner role; used by ingest and demo)',
    parse: text,
  },
  {
    env: 'DATABASE_READ_URL',
    key: 'databaseReadUrl',
    default: null,
    description:
      'Optional PostgreSQL URL the API reads from (a read-only role or a replica); defaults to DATABASE_URL',
    parse: optionalText,
  },
  {
    env: 'DB_POOL_SIZE',
    key: 'dbPoolSize',
    default: '10',
    description: 'PostgreSQL connections per API process',
    parse: integerIn(1, 1000),
  },
  {
    env: 'DB_STATEMENT_TIMEOUT_MS',
    key: 'dbStatementTimeoutMs',
    default: '5000',
    description: 'Statement timeout for API queries on PostgreSQL, in milliseconds',
    parse: integerIn(1, 3_600_000),
  },
  {
    env: 'LOG_LEVEL',
    key: 'logLevel',
    default: 'info',
    description: 'pino log level (fatal, error, warn, info, debug, trace, silent)',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
  },
  {
    env: 'LOG_FORMAT',
    key: 'logFormat',
    default: 'auto',
    description:
      'Log lines: `json` (one JSON object per line), `pretty` (human-readable, pino-pretty) or `auto` (pretty when standard output is a terminal, JSON otherwise)',
    parse: oneOf('auto', 'json', 'pretty'),
  },
  {
    env: 'SERVICES',
    key: 'services',
    default: 'all',
    description: 'Which API this process serves: `all`, `banking` (/api/v1, /embed) or `holdings` (/api)',
    parse: oneOf<Services>('all', 'banking', 'holdings'),
  },
  {
    env: 'CACHE_CONTROL',
    key: 'cacheControl',
    default: 'public, max-age=300, stale-while-revalidate=86400',
    description: 'Cache-Control header of successful GET responses',
    parse: text,
  },
  {
    env: 'CACHE_ENABLED',
    key: 'cacheEnabled',
    default: 'true',
    description: 'In-process response cache on or off (`serve --no-cache` also turns it off)',
    parse: boolean,
  },
  {
    env: 'CACHE_MAX_BYTES',
    key: 'cacheMaxBytes',
    default: '67108864',
    description: 'Bound of the in-process response cache, in bytes of cached bodies (default 64 MiB)',
    parse: integerIn(0, 2 ** 40),
  },
  {
    env: 'READ_INDEX_MAX_BYTES',
    key: 'readIndexMaxBytes',
    default: '134217728',
    description:
      "Bound of the in-memory read indexes, built on first use and kept for the dataset version (peer values of a metric per report date and group kind with every bank's own reports, ~17 MB each at full scale; one report date's call reports, ~11 MB; a call-report field's industry aggregates, every report date, ~30 KB; the security search; a quarter's holder-change counts, ~1 MB; a security's holders in a quarter, read on its first holders page as the JSON of its records, ~180 bytes a holder and ~2 KB an index), in bytes (default 128 MiB); 0 reads the database for every answer instead",
    parse: integerIn(0, 2 ** 40),
  },
  {
    env: 'TUNE_MEMORY',
    key: 'tuneMemory',
    default: 'true',
    description:
      '`serve` restarts itself once at launch (same process id) with 32 MB V8 semi-spaces and glibc malloc settings that return freed memory (`MALLOC_ARENA_MAX=2`, `MALLOC_MMAP_THRESHOLD_=1048576`, `MALLOC_TRIM_THRESHOLD_=1048576`), and lets V8\'s old generation grow at most 50 % past what survived its last full collection (`--heap-growing-percent=50`, set at run time, also in cluster workers); figures in docs/performance.md, "Memory of the serving process". Flags and `MALLOC_*` variables already given are kept; no restart on Windows or with an IPC channel (fork, PM2); false starts the server as launched',
    parse: boolean,
  },
  {
    env: 'VERSION_POLL_MS',
    key: 'versionPollMs',
    default: '500',
    description:
      'PostgreSQL only: fallback poll of the dataset version, in milliseconds, for when the LISTEN/NOTIFY connection is lost or the API reads a replica (SQLite checks on every request)',
    parse: integerIn(50, 60_000),
  },
  {
    env: 'RATE_LIMIT_MAX',
    key: 'rateLimitMax',
    default: '0',
    description: 'Requests allowed per client IP per window; 0 turns rate limiting off',
    parse: integerIn(0, 1_000_000_000),
  },
  {
    env: 'RATE_LIMIT_WINDOW',
    key: 'rateLimitWindowSeconds',
    default: '60',
    description: 'Rate-limit window, in seconds',
    parse: integerIn(1, 86_400),
  },
  {
    env: 'FDIC_API_URL',
    key: 'fdicApiUrl',
    default: 'https://api.fdic.gov/banks',
    description: 'Base URL of the FDIC BankFind Suite API',
    parse: text,
  },
  {
    env: 'FDIC_API_KEY',
    key: 'fdicApiKey',
    default: null,
    description: 'Optional FDIC BankFind API key (sent as `api_key`)',
    parse: optionalText,
  },
  {
    env: 'FRED_API_URL',
    key: 'fredApiUrl',
    default: 'https://api.stlouisfed.org/fred',
    description: 'Base URL of the FRED API',
    parse: text,
  },
  {
    env: 'FRED_API_KEY',
    key: 'fredApiKey',
    default: null,
    description: 'FRED API key; without it the keyless fredgraph CSV download is used',
    parse: optionalText,
  },
  {
    env: 'FRED_GRAPH_URL',
    key: 'fredGraphUrl',
    default: 'https://fred.stlouisfed.org/graph/fredgraph.csv',
    description: 'Keyless FRED graph CSV download used by `regdata ingest fred` when FRED_API_KEY is unset',
    parse: text,
  },
  {
    env: 'FDIC_FINANCIALS_START',
    key: 'fdicFinancialsStart',
    default: '2000-03-31',
    description: 'First quarter-end report date `regdata ingest fdic-financials` loads (YYYY-MM-DD)',
    parse: (raw: string) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw.trim())) throw new Error('must be a date YYYY-MM-DD');
      return raw.trim();
    },
  },
  {
    env: 'FFIEC_BULK_URL',
    key: 'ffiecBulkUrl',
    default: 'https://cdr.ffiec.gov/public/PWS/DownloadBulkData.aspx',
    description:
      'FFIEC CDR bulk download: the DownloadBulkData.aspx page (scripted form flow, latest quarter) or a direct URL of a single-period call-report ZIP; empty skips ffiec-call in `regdata ingest banking`',
    parse: optionalText,
  },
  {
    env: 'INGEST_MAX_RETRIES',
    key: 'ingestMaxRetries',
    default: '5',
    description: 'Retries of an upstream request after 429/5xx/timeouts/truncated bodies',
    parse: integerIn(0, 100),
  },
  {
    env: 'INGEST_RETRY_BASE_MS',
    key: 'ingestRetryBaseMs',
    default: '1000',
    description: 'First retry delay in milliseconds (doubles each retry; a Retry-After header wins)',
    parse: integerIn(0, 600_000),
  },
  {
    env: 'INGEST_REQUEST_INTERVAL_MS',
    key: 'ingestRequestIntervalMs',
    default: '500',
    description: 'Minimum milliseconds between two upstream requests of one ingest (politeness)',
    parse: integerIn(0, 600_000),
  },
  {
    env: 'INGEST_TIMEOUT_MS',
    key: 'ingestTimeoutMs',
    default: '60000',
    description: 'Upstream request timeout (headers and body inactivity), in milliseconds',
    parse: integerIn(1, 3_600_000),
  },
  {
    env: 'INGEST_SWAP_PAUSE_MS',
    key: 'ingestSwapPauseMs',
    default: '0',
    description:
      'Testing aid: hold each ingest swap transaction open this long before it commits (shows readers keep the old data); keep 0',
    parse: integerIn(0, 600_000),
  },
  {
    env: 'INGEST_MAX_REJECTED_PERCENT',
    key: 'ingestMaxRejectedPercent',
    default: '1',
    description:
      'Ingest guard: refuse a load (served data unchanged, exit 1) when more than this percentage of the rows read are rejected',
    parse: percent,
  },
  {
    env: 'INGEST_MAX_SHRINK_PERCENT',
    key: 'ingestMaxShrinkPercent',
    default: '10',
    description:
      'Ingest guard: refuse a load that would remove more than this percentage of the served rows of a scope it replaces (`--allow-shrink` accepts a real shrink)',
    parse: percent,
  },
  {
    env: 'SEC_USER_AGENT',
    key: 'secUserAgent',
    default: null,
    description: 'User-Agent declared to SEC (e.g. `Jane Doe jane@example.org`); required for SEC downloads',
    parse: optionalText,
  },
  {
    env: 'SEC_BASE_URL',
    key: 'secBaseUrl',
    default: 'https://www.sec.gov',
    description:
      'Base URL of www.sec.gov for the SEC ingest sources (13F data-set page, adviser files, 13(f) list, company tickers)',
    parse: text,
  },
  {
    env: 'ENTITY_OVERRIDES_FILE',
    key: 'entityOverridesFile',
    default: null,
    description:
      'Identity-graph overrides (manual links and vetoes, JSON) applied by every load that rebuilds the graph; default: the checked-in config/entity-overrides.json',
    parse: optionalText,
  },
  {
    env: 'EXPORT_DIR',
    key: 'exportDir',
    default: null,
    description:
      'A directory `regdata export` wrote: served at /bulk/ (its manifest.json) and /bulk/{name}; a newer export there is picked up without a restart',
    parse: optionalText,
  },
];

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const setting of SETTINGS) {
    const raw = env[setting.env] ?? setting.default;
    if (raw === null) {
      values[setting.key] = null;
      continue;
    }
    try {
      values[setting.key] = setting.parse(raw);
    } catch (error) {
      problems.push(`${setting.env} ${(error as Error).message} (got ${JSON.stringify(raw)})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return Object.freeze(values as unknown as Config);
}

/** A config for tests and tools: defaults plus overrides, without reading process.env. */
export function configWith(overrides: Partial<Config> = {}): Config {
  return Object.freeze({ ...loadConfig({}), ...overrides });
}
