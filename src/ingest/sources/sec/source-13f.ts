/**
 * `regdata ingest sec-13f [--from <zip|dir|url>]… [--latest N]`: SEC's Form 13F data sets. Without
 * --from, the newest N data sets (default 1) are discovered from SEC's data-set page; a directory
 * contributes its `*_form13f.zip` files (the newest N with --latest). Both naming schemes work:
 * `2023q4_form13f.zip` and `01jun2024-31aug2024_form13f.zip`.
 */

import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { IngestError } from '../../core/errors.js';

import type { IngestContext, IngestSource } from '../../core/types.js';
import { readDatasetFilings } from './dataset-records.js';

import { datasetLabel, openDatasetZip } from './dataset-zip.js';

import { readInfoTable } from './infotable-reader.js';

import { Loader13F } from './load-13f.js';

import { isUrl, linksOn, SecClient } from './sec-http.js';

import type { Rejection } from './types.js';

export const DATASETS_PAGE = 'data-research/sec-markets-data/form-13f-data-sets';

/** Sort key of a data set: the last day it covers (`2023q4` → 2023-12-31). */
export function datasetEnd(name: string): string {
  const label = datasetLabel(name);
  if (label === null) return '';
  const quarterly = /^(\d{4})Q([1-4])$/.exec(label);
  if (quarterly) return `${quarterly[1]}-${['03-31', '06-30', '09-30', '12-31'][Number(quarterly[2]) - 1]}`;
  return label.slice(12);
}

const newestFirst = (a: string, b: string) => datasetEnd(b).localeCompare(datasetEnd(a));

async function discoverLatest(sec: SecClient, count: number): Promise<string[]> {
  const page = sec.url(DATASETS_PAGE);
  const html = (await sec.get(page)).toString('utf8');
  const links = linksOn(html, page, /_form13f\.zip$/i).filter((link) => datasetLabel(link) !== null);
  if (links.length === 0) throw new IngestError(`no *_form13f.zip links found on ${page}`);
  return links.sort(newestFirst).slice(0, count);
}

async function expandDirectory(location: string, latest: number | undefined): Promise<string[] | null> {
  if (isUrl(location)) return null;
  const path = resolve(location.startsWith('file:') ? new URL(location).pathname : location);
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) return null;
  const zips = (await readdir(path)).filter((name) => /_form13f\.zip$/i.test(name) && datasetLabel(name));
  if (zips.length === 0) throw new IngestError(`${path} holds no *_form13f.zip data sets`);
  return zips
    .sort(newestFirst)
    .slice(0, latest ?? zips.length)
    .map((name) => join(path, name));
}

async function locations(ctx: IngestContext, sec: SecClient): Promise<string[]> {
  const { from, latest } = ctx.options;
  if (from.length === 0) return discoverLatest(sec, latest ?? 1);
  const out: string[] = [];
  for (const location of from) out.push(...((await expandDirectory(location, latest)) ?? [location]));
  // Oldest first, so the log reads in order; the derivation does not depend on it.
  return out.sort((a, b) => datasetEnd(a).localeCompare(datasetEnd(b)));
}

async function loadDataset(ctx: IngestContext, sec: SecClient, loader: Loader13F, location: string) {
  const name = basename(location);
  const bytes = await sec.read(location);
  try {
    const rejections: Rejection[] = [];
    const zip = await openDatasetZip(bytes, name);
    const filings = await readDatasetFilings(zip, rejections).finally(() => zip.close());
    for (const filing of filings.values()) await loader.addFiling(filing);
    ctx.progress.start(`${name} INFOTABLE`);
    // Parsed in a worker thread while this one sums and stages the batches already parsed.
    let read = 0;
    for await (const batch of readInfoTable(bytes, name, loader.loadFilings)) {
      await loader.addParsed(batch);
      for (const rejection of batch.rejections) rejections.push(rejection);
      read += batch.read;
      ctx.progress.update(read);
    }
    loader.endOfRows();
    ctx.progress.stop();
    // Read = filings + information-table rows, valid or rejected.
    ctx.tally.read += filings.size + read + rejections.length;
    for (const rejection of rejections) loader.reject(rejection);
    ctx.log(`${name}: ${filings.size} filings, ${read} information-table rows`);
  } catch (error) {
    const message = (error as Error).message;
    // The data set reader's own messages begin with its name already.
    throw new IngestError(
      message.startsWith(`${name}:`) || message.startsWith(`${name} `) ? message : `${name}: ${message}`,
    );
  }
}

export const sec13fSource: IngestSource = {
  name: 'sec-13f',
  group: 'holdings',
  description: 'SEC Form 13F data sets (bulk TSV ZIPs; --latest N from SEC, or --from zip|dir|url)',
  enabledInGroup: (config) => (config.secUserAgent ? true : 'SEC_USER_AGENT is not set'),
  async run(ctx) {
    const sec = new SecClient(ctx);
    const list = await locations(ctx, sec);
    const loader = await Loader13F.open(ctx);
    for (const location of list) await loadDataset(ctx, sec, loader, location);
    await loader.finish();
    ctx.setUpstream(list.join(' '));
    ctx.addNote(`data sets: ${list.map((l) => datasetLabel(l) ?? basename(l)).join(', ')}`);
    ctx.addNote(`quarters: ${[...loader.quarters].sort().join(', ')}`);
  },
};
