// Every error leaves as `{error, message}` (plus the spec's extra fields such as `reason`).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ActionError, type ActionErrorKind } from '../actions/errors.ts';
import { StoreClosedError, StoreFaultError } from '../store/errors.ts';

export const STATUS_OF_KIND: Record<ActionErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
  unavailable: 503,
};

export interface ErrorBody {
  error: string;
  message: string;
  [extra: string]: unknown;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ActionError) {
    void reply
      .code(STATUS_OF_KIND[error.kind])
      .send({ ...(error.detail ?? {}), error: error.code, message: error.message });
    return;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({ path: v.instancePath, message: v.message }));
    const detail = issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ');
    void reply
      .code(400)
      .send({ error: 'invalid_request', message: `the request does not match the schema: ${detail}`, issues });
    return;
  }
  if (error instanceof StoreFaultError) {
    // Pool exhaustion, a failover: the caller retries after Retry-After; never a 500.
    request.log.warn({ code: error.code, err: error }, 'store fault while serving a request; answered 503');
    void reply
      .code(503)
      .header('retry-after', String(error.retryAfterSeconds))
      .send({ error: error.code, message: error.message });
    return;
  }
  if (error instanceof StoreClosedError) {
    void reply.code(503).send({ error: error.code, message: error.message });
    return;
  }
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status < 500) {
    void reply
      .code(status)
      .send({ error: error.code ? error.code.toLowerCase() : 'bad_request', message: error.message });
    return;
  }
  request.log.error({ err: error, code: 'internal_error' }, 'unhandled error while serving a request');
  void reply.code(500).send({
    error: 'internal_error',
    message: 'the gateway failed while serving this request; the log has the details (search for its request id)',
  });
}
