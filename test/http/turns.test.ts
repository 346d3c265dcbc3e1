/**
 * A busy server still accepts connections (src/http/turns.ts): Node accepts one pending connection
 * per event-loop turn, and a turn used to answer every request waiting on the open connections.
 * Over real HTTP, on the front door's own server: while 20 keep-alive clients keep it busy with
 * requests of a few milliseconds each, 20 new connections open at once. Counted, not timed (a
 * shared machine makes times vary): how many requests the busy clients got answered before the
 * last new connection got its first answer. Unbounded turns answer ~20 per accepted connection
 * (≈ 400); bounded ones one or two.
 */
import { Agent, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrontDoor } from '../../src/http/front-door.js';

const BUSY = 20;
const NEW = 20;
const WORK_MS = 4;

function get(origin: string, agent: Agent | false): Promise<void> {
  return new Promise((done, fail) => {
    const req = httpRequest(origin, { agent }, (res) => {
      res.resume();
      res.on('end', () => done());
    });
    req.on('error', fail);
    req.end();
  });
}

describe('event-loop turns of the front door', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    const factory = createFrontDoor().serverFactory as unknown as (
      handler: (req: unknown, res: { end(body: string): void }) => void,
      options: object,
    ) => Server;
    server = factory((_req, res) => {
      const until = performance.now() + WORK_MS; // a request that costs the CPU a few milliseconds
      while (performance.now() < until);
      res.end('ok');
    }, {});
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it('accepts new connections while open ones keep it busy', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: BUSY });
    let answered = 0;
    let stop = false;
    const busy = Array.from({ length: BUSY }, async () => {
      while (!stop) {
        await get(origin, agent);
        answered++;
      }
    });
    while (answered < BUSY * 5) await new Promise((done) => setTimeout(done, 10));

    const before = answered;
    await Promise.all(Array.from({ length: NEW }, () => get(origin, false)));
    const meanwhile = answered - before;
    stop = true;
    await Promise.all(busy);
    agent.destroy();
    console.log(`busy clients got ${meanwhile} answers while ${NEW} new connections got their first`);
    expect(meanwhile).toBeLessThan(BUSY * NEW * 0.3);
  });
});
