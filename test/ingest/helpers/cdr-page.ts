/**
 * A stand-in for the FFIEC CDR bulk-download page, shaped after UPSTREAM.md §3.1: an ASP.NET
 * WebForms page whose state travels in __VIEWSTATE / __EVENTVALIDATION and a session cookie, whose
 * control names carry the `ctl00$MainContentHolder$` prefix, and which answers any out-of-order
 * post with an HTML page (status 200), as WebForms does. Only the right sequence yields the ZIP.
 */
import type { Reply, RequestInfo } from './upstream.js';

const P = 'ctl00$MainContentHolder$';
export const PERIODS = [
  { value: '145', label: '06/30/2025' },
  { value: '144', label: '03/31/2025' },
  { value: '143', label: '12/31/2024' },
];

function page(viewState: string, body: string): Reply {
  return {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': 'ASP.NET_SessionId=s3ss10n; path=/; HttpOnly',
    },
    body: `<!DOCTYPE html><html><body><form method="post" action="./DownloadBulkData.aspx" id="aspnetForm">
<input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
<input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="${viewState}" />
<input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="A1B2C3D4" />
<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="ev&amp;${viewState}" />
<select size="4" name="${P}ListBox1" onchange="javascript:setTimeout(&#39;__doPostBack(\\&#39;${P}ListBox1\\&#39;,\\&#39;\\&#39;)&#39;, 0)" id="ctl00_MainContentHolder_ListBox1">
<option value="ReportingSeriesSinglePeriod">Call Reports -- Single Period</option>
<option value="ReportingSeriesSubsetSchedulesFourPeriods">Call Reports -- Balance Sheet, Income Statement, Past Due -- Four Periods</option>
</select>
${body}</form></body></html>`,
  };
}

const errorPage: Reply = {
  headers: { 'content-type': 'text/html' },
  body: '<html><body>Session expired</body></html>',
};

/** The route for DownloadBulkData.aspx; `zip` is what a correct download returns. */
export function cdrPage(zip: Buffer, posts: URLSearchParams[]) {
  return (_url: URL, _hit: number, request: RequestInfo): Reply => {
    if (request.method === 'GET') return page('vs1', '');
    const form = new URLSearchParams(request.body);
    posts.push(form);
    const cookie = String(request.headers.cookie ?? '');
    if (!cookie.includes('ASP.NET_SessionId=s3ss10n')) return errorPage;
    const state = form.get('__VIEWSTATE');
    if (state === 'vs1' && form.get(`${P}ListBox1`) === 'ReportingSeriesSinglePeriod') {
      const options = PERIODS.map((p) => `<option value="${p.value}">${p.label}</option>`).join('');
      return page(
        'vs2',
        `<select name="${P}DatesDropDownList" id="ctl00_MainContentHolder_DatesDropDownList">${options}</select>
<input id="ctl00_MainContentHolder_TSVRadioButton" type="radio" name="${P}FormatType" value="TSVRadioButton" checked="checked" />
<input id="ctl00_MainContentHolder_XBRLRadiobutton" type="radio" name="${P}FormatType" value="XBRLRadiobutton" />`,
      );
    }
    if (state === 'vs2' && form.get('__EVENTTARGET') === `${P}DatesDropDownList`) {
      return page(
        'vs3',
        `<input type="submit" name="${P}Download_0" value="Download" id="ctl00_MainContentHolder_Download_0" />`,
      );
    }
    if (state === 'vs3' && form.get(`${P}Download_0`) && form.get(`${P}FormatType`) === 'TSVRadioButton') {
      if (form.get(`${P}DatesDropDownList`) !== '145') return errorPage;
      return { headers: { 'content-type': 'application/octet-stream' }, body: zip };
    }
    return errorPage;
  };
}
