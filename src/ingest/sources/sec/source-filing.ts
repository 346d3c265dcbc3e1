/**
 * `regdata ingest sec-13f-filing --from <path|url>…`: single EDGAR 13F filings. Each full submission
 * (`.txt`, or the dissemination `.nc` form) is one filing; loose XML files (a primary document and
 * its information table) together make one filing. An EDGAR filing folder URL
 * (`…/Archives/edgar/data/{cik}/{accession}/`) is expanded through its `index.json`.
 * `--accession/--cik/--period/--filed` supply what bare files cannot say.
 */
import { IngestError } from '../../core/errors.js';
import type { IngestContext, IngestSource } from '../../core/types.js';
import { type FilingInput, type FilingOverrides, parseFiling } from './edgar-filing.js';

import { looksLikeSubmission } from './edgar-submission.js';

import { Loader13F } from './load-13f.js';

import { isUrl, SecClient } from './sec-http.js';

import { decodeSecText } from './text-decoding.js';

/** A filing folder URL → the URLs of its XML documents, from the folder's index.json. */
async function expandFolder(sec: SecClient, url: string): Promise<string[]> {
  const indexUrl = url.endsWith('index.json') ? url : `${url.replace(/\/?$/, '/')}index.json`;
  const index = JSON.parse((await sec.get(indexUrl)).toString('utf8')) as {
    directory?: { item?: { name?: string }[] };
  };
  const names = (index.directory?.item ?? []).map((item) => item.name ?? '').filter((n) => /\.xml$/i.test(n));
  if (names.length === 0) throw new IngestError(`${indexUrl} lists no XML documents`);
  return names.map((name) => new URL(name, indexUrl).toString());
}

async function readInputs(ctx: IngestContext, sec: SecClient): Promise<FilingInput[]> {
  if (ctx.options.from.length === 0) {
    throw new IngestError(
      'sec-13f-filing needs --from <file|url> (a .txt/.nc submission or the XML documents)',
    );
  }
  const inputs: FilingInput[] = [];
  for (const location of ctx.options.from) {
    const isFolder = isUrl(location) && (/\/$/.test(location) || /index\.json$/.test(location));
    const urls = isFolder ? await expandFolder(sec, location) : [location];
    for (const url of urls) {
      const text = decodeSecText(await sec.read(url));
      // An accession number in the folder path names the filing when its files do not.
      inputs.push({ name: isFolder ? `${location} ${url}` : url, text });
    }
  }
  return inputs;
}

function overridesFrom(ctx: IngestContext): FilingOverrides {
  const filing = ctx.options.filing ?? {};
  return {
    ...(filing.accession ? { accession: filing.accession } : {}),
    ...(filing.cik ? { cik: filing.cik } : {}),
    ...(filing.period ? { period: filing.period } : {}),
    ...(filing.filed ? { filingDate: filing.filed } : {}),
  };
}

async function loadFiling(ctx: IngestContext, loader: Loader13F, group: FilingInput[]) {
  const parsed = await parseFiling(group, overridesFrom(ctx)).catch((error: Error) => {
    throw new IngestError(`${group.map((g) => g.name).join(' + ')}: ${error.message}`);
  });
  const { filing, rows, rejections } = parsed;
  for (const note of parsed.notes) ctx.log(`${filing.accession}: ${note}`);
  ctx.tally.read += 1 + rows.length + rejections.length;
  if (!(await loader.addFiling(filing))) return;
  await loader.addRows(rows);
  for (const rejection of rejections) loader.reject(rejection);
  const summary = filing.tableEntryTotal === null ? '' : ` (summary page: ${filing.tableEntryTotal} entries)`;
  ctx.log(
    `${filing.accession} ${filing.formType} CIK ${filing.cik} ${filing.period}: ${rows.length} rows${summary}`,
  );
  if (
    filing.tableEntryTotal !== null &&
    parsed.tableRows !== null &&
    parsed.tableRows !== filing.tableEntryTotal
  ) {
    ctx.log(
      `warning: ${filing.accession} has ${parsed.tableRows} rows but its summary page says ${filing.tableEntryTotal}`,
    );
  }
}

export const sec13fFilingSource: IngestSource = {
  name: 'sec-13f-filing',
  group: 'holdings',
  description: 'Single EDGAR 13F filings (--from .txt/.nc submission, XML documents, or a filing folder URL)',
  // Needs explicit --from; never part of `regdata ingest holdings`.
  enabledInGroup: () => 'needs --from',
  async run(ctx) {
    const sec = new SecClient(ctx);
    const inputs = await readInputs(ctx, sec);
    const loader = await Loader13F.open(ctx);
    const submissions = inputs.filter((input) => looksLikeSubmission(input.text));
    const loose = inputs.filter((input) => !looksLikeSubmission(input.text));
    for (const submission of submissions) await loadFiling(ctx, loader, [submission]);
    if (loose.length > 0) await loadFiling(ctx, loader, loose);
    await loader.finish();
    ctx.setUpstream(ctx.options.from.join(' '));
    ctx.addNote(`quarters: ${[...loader.quarters].sort().join(', ')}`);
  },
};
