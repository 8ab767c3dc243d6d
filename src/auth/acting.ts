// The acting user of a request, as the guard resolved it from the credential (http-guard.ts): a
// human token's own member, or the user a service token names. Routes never read it from the body.
import type { FastifyRequest } from 'fastify';
import { ActionError } from '../actions/errors.ts';

export function actingUserOf(request: FastifyRequest): string {
  const id = request.auth?.actingUserId;
  if (!id)
    throw new ActionError(
      'invalid',
      'acting_user_required',
      "name the acting user: actingUserId (or userId) in the body, or call with that user's own human token",
    );
  return id;
}

/** For provisioning routes where the admin token may act without naming anyone. */
export const optionalActingUserOf = (request: FastifyRequest): string | undefined =>
  request.auth?.actingUserId ?? undefined;
