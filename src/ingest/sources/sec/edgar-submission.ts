/**
 * Splits a full EDGAR submission into its header and documents. Two spellings exist: the public
 * `.txt` (an `<SEC-HEADER>` block of `KEY:<tab>value` lines) and the dissemination `.nc` form
 * (`<ACCESSION-NUMBER>0001…` tags without closing tags, sometimes with bare CR line ends). Each
 * document's `<XML>` block is returned as text for the XML parsers.
 */

export interface SubmissionDocument {
  type: string | null;
  fileName: string | null;
  /** Content of the `<XML>` block, or null for non-XML documents (HTML, text exhibits). */
  xml: string | null;
}

export interface Submission {
  accession: string | null;
  formType: string | null;
  /** `YYYYMMDD` as in the header. */
  filingDate: string | null;
  period: string | null;
  cik: string | null;
  documents: SubmissionDocument[];
}

export function looksLikeSubmission(text: string): boolean {
  return /^\s*<(SEC-DOCUMENT|SUBMISSION|SEC-HEADER|IMS-DOCUMENT)>/.test(text);
}

function headerValue(header: string, labels: string[]): string | null {
  for (const label of labels) {
    const colon = new RegExp(`^\\s*${label}:[ \\t]*(.+?)\\s*$`, 'm').exec(header);
    if (colon?.[1]) return colon[1];
  }
  return null;
}

function tagValue(header: string, tags: string[]): string | null {
  for (const tag of tags) {
    const match = new RegExp(`<${tag}>[ \\t]*([^<\\n]+?)\\s*$`, 'm').exec(header);
    if (match?.[1]) return match[1];
  }
  return null;
}

export function splitSubmission(raw: string): Submission {
  const text = raw.replace(/\r\n?/g, '\n');
  if (!looksLikeSubmission(text)) throw new Error('not an EDGAR submission (.txt/.nc) file');
  const firstDocument = text.indexOf('<DOCUMENT>');
  const header = firstDocument === -1 ? text : text.slice(0, firstDocument);
  const fromHeader = (labels: string[], tags: string[]) =>
    headerValue(header, labels) ?? tagValue(header, tags);
  return {
    accession: fromHeader(['ACCESSION NUMBER'], ['ACCESSION-NUMBER']),
    formType: fromHeader(['CONFORMED SUBMISSION TYPE'], ['TYPE']),
    filingDate: fromHeader(['FILED AS OF DATE'], ['FILING-DATE']),
    period: fromHeader(['CONFORMED PERIOD OF REPORT'], ['PERIOD']),
    cik: fromHeader(['CENTRAL INDEX KEY'], ['CIK']),
    documents: splitDocuments(text),
  };
}

function splitDocuments(text: string): SubmissionDocument[] {
  const documents: SubmissionDocument[] = [];
  const pattern = /<DOCUMENT>([\s\S]*?)(?:<\/DOCUMENT>|(?=<DOCUMENT>)|$)/g;
  for (const match of text.matchAll(pattern)) {
    const body = match[1] ?? '';
    const xml = /<XML>\s*([\s\S]*?)\s*<\/XML>/.exec(body);
    documents.push({
      type: tagValue(body, ['TYPE']),
      fileName: tagValue(body, ['FILENAME']),
      xml: xml?.[1] ?? null,
    });
  }
  return documents;
}

/** Which 13F XML document a text is, by its root element (any namespace prefix). */
export function xmlKind(xml: string): 'primary' | 'infotable' | null {
  const root = /<(?:[\w.-]+:)?(edgarSubmission|informationTable)[\s>/]/.exec(xml);
  if (!root) return null;
  return root[1] === 'edgarSubmission' ? 'primary' : 'infotable';
}
