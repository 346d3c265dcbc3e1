/**
 * RFC 9457 problem documents: the one error shape of both APIs. Handlers throw ProblemError (or
 * one of the helpers below); the error handler in errors.ts renders it.
 */
import { Type } from 'typebox';

export interface ParamError {
  param: string;
  message: string;
}

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: ParamError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function invalidParams(errors: ParamError[]): ProblemError {
  const detail = errors.map((e) => `${e.param} ${e.message}`).join('; ');
  return new ProblemError(400, '/problems/invalid-parameter', 'Invalid parameter', detail, errors);
}

export function invalidParam(param: string, message: string): ProblemError {
  return invalidParams([{ param, message }]);
}

export function notFound(detail: string): ProblemError {
  return new ProblemError(404, '/problems/not-found', 'Not found', detail);
}

export function dataUnavailable(detail: string): ProblemError {
  return new ProblemError(503, '/problems/data-unavailable', 'Data unavailable', detail);
}

export function methodNotAllowed(method: string, allow: string): ProblemError {
  return new ProblemError(
    405,
    '/problems/method-not-allowed',
    'Method not allowed',
    `${method} is not allowed here; this API is read-only (allowed: ${allow})`,
    undefined,
    { allow },
  );
}

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Problem type URI reference, e.g. `/problems/invalid-parameter`' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The request path and query that caused the problem' }),
    request_id: Type.Optional(
      Type.String({ description: 'Request id (also in X-Request-Id); always on 5xx' }),
    ),
    errors: Type.Optional(
      Type.Array(Type.Object({ param: Type.String(), message: Type.String() }), {
        description: 'Every invalid parameter, not only the first',
      }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem document (application/problem+json)' },
);

/** Response schemas every API route declares for its error statuses. */
export const problemResponses = {
  400: Type.Ref('Problem'),
  404: Type.Ref('Problem'),
  503: Type.Ref('Problem'),
} as const;
