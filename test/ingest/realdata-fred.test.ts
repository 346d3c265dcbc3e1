/**
 * Every FRED file in ../shared/realdata, loaded by the CLI: catalogue series answer through
 * /api/v1/macro with exactly the file's observations ("." and empty omitted); the non-catalogue
 * extras (USROA, USROE, MORTGAGE30US) are stored with the file's values (the API serves only the 12).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMacroSeriesId } from '../../src/macro/catalog.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { REALDATA, realdata, sharedAvailable } from './helpers/shared.js';

const available = sharedAvailable(['fred/PROVENANCE.md'], 'FRED real-data ingest tests');
const FILES = available
  ? readdirSync(`${REALDATA}/fred`)
      .filter((f) => /\.(csv|json)$/.test(f))
      .sort()
  : [];

interface Observation {
  date: string;
  value: number;
}

/** The test's own reading of a file: id and non-missing observations. */
function expectedOf(file: string): { id: string; observations: Observation[] } {
  const text = readFileSync(realdata(`fred/${file}`), 'utf8');
  if (file.endsWith('.json')) {
    const json = JSON.parse(text) as { id: string; observations: { date: string; value: number }[] };
    return { id: json.id, observations: json.observations.map((o) => ({ date: o.date, value: o.value })) };
  }
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l !== '');
  const observations = lines
    .map((line) => line.split(','))
    .filter(([, value]) => value !== undefined && value !== '' && value !== '.')
    .map(([date, value]) => ({ date: date!, value: Number(value) }));
  return { id: header!.split(',')[1]!, observations };
}

/** Loading rounds: one file per series at a time, since a load replaces the series it holds. */
function rounds(files: readonly string[]): string[][] {
  const result: string[][] = [];
  const seen = new Map<string, number>();
  for (const file of files) {
    const id = expectedOf(file).id;
    const round = seen.get(id) ?? 0;
    seen.set(id, round + 1);
    if (!result[round]) result[round] = [];
    result[round]!.push(file);
  }
  return result;
}

async function servedObservations(api: ApiUnderTest, id: string, from: string, to: string) {
  const all: Observation[] = [];
  // Windows of 10 years keep every answer under the API's 5000-observation limit.
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 10) {
    const { status, body } = await api.get(
      `/api/v1/macro?series=${id}&start=${year}-01-01&end=${year + 9}-12-31&limit=5000`,
    );
    expect(status).toBe(200);
    expect(body.series[id].meta.truncated).toBe(false);
    all.push(...body.series[id].data);
  }
  return all;
}

(available ? describe : describe.skip).each(testBackends())(
  'real FRED files on $name',
  (backend: Backend) => {
    let database: TestDatabase;
    let api: ApiUnderTest;

    beforeAll(async () => {
      database = await backend.create();
      api = await openApi(database);
    });
    afterAll(async () => {
      await api?.close();
      await database?.drop();
    });

    it('loads every file and serves exactly its observations', { timeout: 300_000 }, async () => {
      expect(FILES.length).toBeGreaterThanOrEqual(18);
      for (const round of rounds(FILES)) {
        const args = round.flatMap((file) => ['--from', realdata(`fred/${file}`)]);
        // A later round may load a shorter file of a series already served: a real shrink.
        const { code, summary, stderr } = await ingestJson(['fred', ...args, '--allow-shrink'], {
          DATABASE_URL: database.url,
        });
        expect(code, stderr).toBe(0);
        expect(summary.rejected, JSON.stringify(summary.rejected_reasons)).toBe(0);
        for (const file of round) {
          const { id, observations } = expectedOf(file);
          const first = observations[0]!.date;
          const last = observations.at(-1)!.date;
          if (isMacroSeriesId(id)) {
            expect(await servedObservations(api, id, first, last), file).toEqual(observations);
          } else {
            const stored = await database.writer.db
              .selectFrom('macro_observations')
              .select(['date', 'value'])
              .where('series_id', '=', id)
              .orderBy('date')
              .execute();
            expect(stored, file).toEqual(observations);
          }
        }
      }
    });
  },
);
