// The load generator of the HTTP benchmark, run as its own process so that it never shares an
// event loop with the server measured. argv[2]: JSON {origin, paths, connections, seconds}.
// Cycles through the paths; prints one JSON line with throughput, latency and failures. Bodies are
// counted, not kept.
import autocannon from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';

// autocannon appends every body chunk to a string (`body += chunk`: a UTF-8 decode), for checks
// we never ask for. For JSON that is not pure ASCII (names with accents) that decode costs the
// load generator more than the server's whole cached answer, and it shares the 2 cores with the
// server: the figures measured autocannon. Bytes are still counted (addByteCount).
if (typeof PipelinedRequestsQueue.prototype.addBody !== 'function') {
  throw new Error('autocannon internals changed: PipelinedRequestsQueue#addBody is gone');
}
PipelinedRequestsQueue.prototype.addBody = () => {};

const { origin, paths, connections, seconds } = JSON.parse(process.argv[2]);
let next = 0;
const result = await autocannon({
  url: origin,
  connections,
  duration: seconds,
  requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
});
const statuses = Object.fromEntries(
  Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
);
console.log(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
  }),
);
