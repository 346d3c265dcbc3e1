/**
 * buildApp(config, deps): the whole HTTP application from a config and a database handle. Tests and
 * the CLI build it the same way; only server.ts listens.
 */
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { bankingRoutes } from './banking/index.js';
import { bulkRoutes } from './bulk/routes.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/connect.js';
import type { Database } from './db/tables.js';
import { holdingsRoutes } from './holdings/index.js';
import { loggingOptions } from './http/access-log.js';
import { registerServingLayer } from './http/cache-setup.js';
import { recordRoutes } from './http/catalog.js';
import { registerErrorHandling, registerMethodNotAllowed } from './http/errors.js';
import { createFrontDoor } from './http/front-door.js';
import { normalizeRequest } from './http/normalize.js';
import { registerOpenApi } from './http/openapi.js';
import { ANNOTATION_KEYWORDS } from './http/params.js';
import { ProblemSchema } from './http/problem.js';
import { requestId } from './http/request-id.js';
import { answerClientError, answerFrameworkError } from './http/security.js';
import { serializerController } from './http/serializer.js';
import { operationsRoutes } from './operations/routes.js';
import { widgetRoutes } from './widgets/index.js';

export interface AppDeps {
  /** The database the API reads (opened read-only by the server). */
  readonly handle: DbHandle;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<Database>;
    /** The dataset version served now (the serving layer's version watch). */
    datasetVersion: () => number;
    deps: AppDeps;
  }
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const front = createFrontDoor();
  const app = Fastify({
    serverFactory: front.serverFactory,
    ...loggingOptions(config),
    requestIdHeader: false,
    genReqId: (req) => requestId(req.headers['x-request-id']),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    schemaController: serializerController(),
    ajv: {
      customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false },
      plugins: [
        (ajv) => {
          for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });
          return ajv;
        },
      ],
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', deps.handle.db);
  app.decorate('deps', deps);
  app.addSchema(ProblemSchema);

  registerErrorHandling(app);
  recordRoutes(app);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'OPTIONS'],
    maxAge: 86400,
    strictPreflight: false,
  });
  // A callback hook, not an async one (a promise and a microtask fewer): it runs on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  await registerServingLayer(app, config, deps.handle, front);
  app.addHook('preValidation', normalizeRequest);
  await registerOpenApi(app);

  await app.register(operationsRoutes);
  if (config.services !== 'holdings') {
    await app.register(bankingRoutes, { prefix: '/api/v1' });
    await app.register(widgetRoutes, { prefix: '/embed' });
  }
  if (config.services !== 'banking') await app.register(holdingsRoutes, { prefix: '/api' });
  await app.register(bulkRoutes, { prefix: '/bulk' });

  registerMethodNotAllowed(app);
  return app;
}
