/** autocannon driving a mix of endpoints: valid, invalid, cached and never-seen URLs. */
import autocannon from 'autocannon';

const URL_PATTERNS = 11;
const URL_VARIANTS = 1000;
/** How many requests it takes nextUrl to produce every URL it ever produces once. */
export const URL_CYCLE = URL_PATTERNS * URL_VARIANTS;

/** Cycles through valid, invalid, cached and never-seen URLs of several endpoints. */
export function nextUrl(i: number): string {
  const n = i % URL_VARIANTS;
  const urls = [
    `/api/v1/failures?limit=${(n % 500) + 1}&offset=${n}`,
    `/api/v1/banks?limit=50&offset=${n % 300}`,
    '/api/v1/failures?state=TX&format=csv',
    '/api/v1/macro',
    `/api/v1/financials?limit=20&offset=${n % 100}`,
    '/api/v1/meta',
    '/healthz',
    `/api/v1/failures?limit=abc${n}`,
    `/api/v1/nope/${n}`,
    `/api/advisers?limit=25&offset=${n % 200}`,
    `/api/crowded?limit=10`,
  ];
  return urls[i % URL_PATTERNS] as string;
}

/** Drives for `seconds`, or for exactly `amount` requests. */
export function drive(origin: string, length: { seconds: number } | { amount: number }, connections: number) {
  let i = 0;
  return autocannon({
    url: origin,
    connections,
    ...('amount' in length ? { amount: length.amount } : { duration: length.seconds }),
    // A request counts as failed when it gets no answer within 10 s (the test also bounds the
    // slowest answer, far tighter).
    timeout: 10,
    requests: [{ setupRequest: (request) => ({ ...request, path: nextUrl(i++) }) }],
  });
}

/** URLs reading the failures table (what the reliability "ingest" rewrites), valid and not. */
export function failuresUrl(i: number): string {
  const n = i % 1000;
  const urls = [
    `/api/v1/failures?limit=${(n % 500) + 1}&offset=${n}`,
    '/api/v1/failures?limit=1',
    '/api/v1/failures?state=TX&format=csv',
    `/api/v1/failures?year=${1990 + (n % 30)}`,
    `/api/v1/failures?limit=abc${n}`,
    '/api/v1/meta',
  ];
  return urls[i % urls.length] as string;
}

/** Drives until stop() is called; stop() resolves with the result. */
export function driveUntilStopped(
  origin: string,
  connections: number,
  urlAt: (i: number) => string = nextUrl,
) {
  let i = 0;
  let finish: (result: autocannon.Result) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const finished = new Promise<autocannon.Result>((done, reject) => {
    finish = done;
    fail = reject;
  });
  const instance = autocannon(
    {
      url: origin,
      connections,
      duration: 3600,
      requests: [{ setupRequest: (request) => ({ ...request, path: urlAt(i++) }) }],
    },
    (error, result) => (error ? fail(error) : finish(result)),
  );
  return {
    stop() {
      instance.stop();
      return finished;
    },
  };
}

export function serverErrors(result: autocannon.Result): number {
  return Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => Number(code) >= 500)
    .reduce((sum, [, stats]) => sum + (stats as { count: number }).count, 0);
}
