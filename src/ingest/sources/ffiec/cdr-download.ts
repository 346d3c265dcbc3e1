/**
 * The FFIEC CDR bulk-download page (`DownloadBulkData.aspx`) is an ASP.NET WebForms page without a
 * stable file URL (UPSTREAM.md §3.1). The scripted flow: GET the page (hidden __VIEWSTATE et al. and
 * cookies) → post the product "Call Reports -- Single Period" → post the period and the
 * tab-delimited format → post the Download button, which answers with the ZIP. Control names carry
 * a prefix (`ctl00$MainContentHolder$`), so they are matched by suffix. Brittle by nature: any
 * failure names the step, and `--from <zip>` remains the fallback.
 */
import { IngestError } from '../../core/errors.js';
import type { FetchResult } from '../../core/fetcher.js';
import type { IngestContext } from '../../core/types.js';

const PRODUCT = 'ReportingSeriesSinglePeriod';
const TSV_FORMAT = 'TSVRadioButton';

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag);
  return m ? decodeEntities(m[1]!) : null;
}

/** The form's hidden inputs (__VIEWSTATE, __VIEWSTATEGENERATOR, __EVENTVALIDATION, …). */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<input\b[^>]*>/gi)) {
    if ((attribute(tag, 'type') ?? '').toLowerCase() !== 'hidden') continue;
    const name = attribute(tag, 'name');
    if (name) fields[name] = attribute(tag, 'value') ?? '';
  }
  return fields;
}

/** The full name of the control whose name ends with `suffix`. */
export function controlName(html: string, suffix: string): string {
  for (const [tag] of html.matchAll(/<(?:input|select)\b[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    if (name?.endsWith(suffix)) return name;
  }
  throw new IngestError(`FFIEC CDR page: no control named …${suffix} (the page layout changed?)`);
}

export interface PeriodOption {
  readonly value: string;
  /** YYYY-MM-DD */
  readonly date: string;
}

/** The periods offered in the dates drop-down (labels `MM/DD/YYYY`). */
export function periodOptions(html: string): PeriodOption[] {
  const select = /<select\b[^>]*name="[^"]*DatesDropDownList"[^>]*>([\s\S]*?)<\/select>/i.exec(html);
  if (!select) throw new IngestError('FFIEC CDR page: no reporting-period list after choosing the product');
  const options: PeriodOption[] = [];
  for (const m of select[1]!.matchAll(/<option\b([^>]*)>([^<]*)<\/option>/gi)) {
    const label = /(\d{2})\/(\d{2})\/(\d{4})/.exec(m[2]!);
    const value = attribute(` ${m[1]!}`, 'value');
    if (label && value !== null) options.push({ value, date: `${label[3]}-${label[1]}-${label[2]}` });
  }
  return options;
}

class Session {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly ctx: IngestContext,
    private readonly url: string,
  ) {}

  private remember(result: FetchResult): void {
    const raw = result.headers['set-cookie'];
    for (const cookie of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair] = cookie.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  private headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return cookie ? { cookie } : {};
  }

  async get(): Promise<string> {
    const result = await this.ctx.fetcher.send('GET', this.url, { headers: this.headers() });
    this.remember(result);
    return result.body.toString('utf8');
  }

  async post(fields: Record<string, string>): Promise<FetchResult> {
    const result = await this.ctx.fetcher.send('POST', this.url, {
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    this.remember(result);
    return result;
  }
}

/** Downloads the single-period ZIP for the latest period on or before `until` (default: latest). */
export async function downloadCallBulk(ctx: IngestContext, pageUrl: string, until?: string) {
  const session = new Session(ctx, pageUrl);
  let html = await session.get();
  const product = controlName(html, 'ListBox1');
  html = (
    await session.post({
      ...hiddenFields(html),
      __EVENTTARGET: product,
      __EVENTARGUMENT: '',
      [product]: PRODUCT,
    })
  ).body.toString('utf8');
  const dates = controlName(html, 'DatesDropDownList');
  const format = controlName(html, 'FormatType');
  const offered = periodOptions(html)
    .filter((p) => !until || p.date <= until)
    .sort((a, b) => b.date.localeCompare(a.date));
  const period = offered[0];
  if (!period)
    throw new IngestError(`FFIEC CDR page: no reporting period${until ? ` on or before ${until}` : ''}`);
  const choice = { [product]: PRODUCT, [dates]: period.value, [format]: TSV_FORMAT };
  html = (
    await session.post({ ...hiddenFields(html), __EVENTTARGET: dates, __EVENTARGUMENT: '', ...choice })
  ).body.toString('utf8');
  const download = controlName(html, 'Download_0');
  const result = await session.post({
    ...hiddenFields(html),
    __EVENTTARGET: '',
    __EVENTARGUMENT: '',
    ...choice,
    [download]: 'Download',
  });
  const type = String(result.headers['content-type'] ?? '');
  if (type.includes('text/html') || result.body.subarray(0, 2).toString('latin1') !== 'PK') {
    throw new IngestError(
      `FFIEC CDR page: the download for ${period.date} returned ${type || 'no'} content, not a ZIP`,
    );
  }
  return { bytes: result.body, period: period.date };
}
