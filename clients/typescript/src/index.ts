/**
 * The typed regdata client: openapi-fetch over the types openapi-typescript generates from
 * /openapi.json (src/schema.ts; regenerate with `npm run client:generate` at the repository root,
 * CI fails when it is stale). Every path, parameter and answer is typed; errors come back as the
 * API's RFC 9457 problem documents.
 *
 *   const regdata = createRegdataClient('http://localhost:3000');
 *   const { data, error } = await regdata.GET('/api/v1/banks', { params: { query: { state: 'TX' } } });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
/** The JSON answers and the problem documents (`format=csv` is read with `parseAs: 'text'`). */
export type JsonMediaType = 'application/json' | 'application/problem+json';
export type RegdataClient = Client<paths, JsonMediaType>;
/** An RFC 9457 problem document: what every error answer carries. */
export type Problem = components['schemas']['Problem'];

export function createRegdataClient(
  baseUrl: string,
  options: Omit<ClientOptions, 'baseUrl'> = {},
): RegdataClient {
  return createClient<paths, JsonMediaType>({ ...options, baseUrl });
}

/** The answer of one operation, by its operationId (e.g. `Answer<'bankingBanks'>`). */
export type Answer<Id extends keyof operations> = operations[Id] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
