/**
 * The IAPD compilation feed (`IA_FIRM_SEC_Feed_MM_DD_YYYY.xml.gz`): ~17k `<Firm>` elements whose
 * data sit almost entirely in attributes. Streamed (the feed is ~78 MB uncompressed); one record per
 * firm. Regulatory AUM (`Item5F/@Q5F2C`) is USD.
 */
import { FieldError } from '../../core/errors.js';
import type { AdviserRecord, Rejection } from './types.js';
import { parseDecimalAmount, parseSecDate, textOrNull } from './values.js';
import { walkXml } from './xml-walk.js';

type Attributes = Record<string, string>;

interface FirmParts {
  info?: Attributes;
  address?: Attributes;
  registration?: Attributes;
  filing?: Attributes;
  item5a?: Attributes;
  item5c?: Attributes;
  item5f?: Attributes;
  website?: string;
}

const PARTS: Record<string, keyof FirmParts> = {
  Info: 'info',
  MainAddr: 'address',
  Rgstn: 'registration',
  Filing: 'filing',
  Item5A: 'item5a',
  Item5C: 'item5c',
  Item5F: 'item5f',
};

function count(raw: string | undefined): number | null {
  const value = parseDecimalAmount(raw);
  if (value === null) return null;
  if (!Number.isInteger(value) || value < 0) throw new FieldError(`not a count: ${JSON.stringify(raw)}`);
  return value;
}

function firmRecord(parts: FirmParts): AdviserRecord {
  const info = parts.info ?? {};
  const address = parts.address ?? {};
  const crdText = (info.FirmCrdNb ?? '').trim();
  if (!/^\d+$/.test(crdText)) throw new FieldError(`invalid FirmCrdNb ${JSON.stringify(info.FirmCrdNb)}`);
  const name = textOrNull(info.BusNm) ?? textOrNull(info.LegalNm);
  if (name === null) throw new FieldError(`firm ${crdText} has no name`);
  return {
    crd: Number(crdText),
    secNumber: textOrNull(info.SECNb),
    name,
    legalName: textOrNull(info.LegalNm),
    street1: textOrNull(address.Strt1),
    street2: textOrNull(address.Strt2),
    city: textOrNull(address.City),
    state: textOrNull(address.State)?.toUpperCase() ?? null,
    country: textOrNull(address.Cntry),
    postalCode: textOrNull(address.PostlCd),
    phone: textOrNull(address.PhNb),
    website: textOrNull(parts.website),
    registrationStatus: textOrNull(parts.registration?.St),
    latestFilingDate: parseSecDate(parts.filing?.Dt),
    employees: count(parts.item5a?.TtlEmp),
    clients: count(parts.item5c?.Q5C1),
    aum: parseDecimalAmount(parts.item5f?.Q5F2C),
    discretionaryAum: parseDecimalAmount(parts.item5f?.Q5F2A),
    nonDiscretionaryAum: parseDecimalAmount(parts.item5f?.Q5F2B),
  };
}

/** Parses the decoded feed, calling `onFirm` per firm; bad firms are rejected with a reason. */
export async function parseIapdFeed(
  chunks: AsyncIterable<string> | Iterable<string>,
  onFirm: (adviser: AdviserRecord) => void,
  rejections: Rejection[],
): Promise<number> {
  let firm: FirmParts | null = null;
  let seen = 0;
  let root: string | null = null;
  await walkXml(chunks, {
    open(path, attributes) {
      root ??= path[0] ?? null;
      const name = path[path.length - 1]!;
      if (name === 'Firm') firm = {};
      else if (firm !== null && PARTS[name] && firm[PARTS[name]] === undefined) {
        (firm as Record<string, Attributes>)[PARTS[name]] = attributes;
      }
    },
    close(path, text) {
      const name = path[path.length - 1];
      if (firm === null) return;
      if (name === 'WebAddr' && firm.website === undefined && text !== '') firm.website = text;
      if (name !== 'Firm') return;
      seen += 1;
      try {
        onFirm(firmRecord(firm));
      } catch (error) {
        rejections.push({ where: `Firm #${seen}`, reason: (error as Error).message });
      }
      firm = null;
    },
  });
  if (!(root as string | null)?.startsWith('IAPD')) {
    throw new Error(`not an IAPD firm feed (root <${root}>)`);
  }
  return seen;
}
