// External executors over HTTP (README "External executors"): long-poll claim of a queued action
// of one type, lease extension, and the report that settles it. Only an executor token gets here
// (src/auth/table.ts); which dispatches it may report is checked by the ExecutorService.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ExecutorIdentity, ExecutorService } from '../../execution/executors.ts';
import {
  ClaimedSchema,
  ExtendFields,
  LeaseSeconds,
  ReportedSchema,
  ReportFields,
} from '../../execution/executor-wire.ts';
import { errorResponses, FreeObject, Id } from '../schemas.ts';

const TypeParams = z.object({ type: z.string().min(1).max(64) });
const DispatchParams = TypeParams.extend({ dispatchId: Id });
/** The longest a claim long-poll holds the request. */
const MAX_WAIT_S = 60;
const disabled = (reply: FastifyReply) =>
  reply.code(503).send({
    error: 'execution_disabled',
    message: 'this gateway runs without the execution dispatcher; start it with `brabo serve`',
  });

function executorOf(request: FastifyRequest): ExecutorIdentity {
  const principal = request.auth?.principal;
  if (principal?.kind !== 'executor') throw new Error('executor routes run behind the authorization guard');
  return { credentialId: principal.credentialId, name: principal.name, projectId: principal.projectId };
}

export const executorRoutes: FastifyPluginAsyncZod<{ executors?: () => ExecutorService | null }> = async (
  app,
  { executors },
) => {
  app.post(
    '/api/executors/:type/claim',
    {
      schema: {
        tags: ['executors'],
        description:
          'Claims the oldest approved action of `type` that the gateway does not run itself (git, PR, plan types), waiting up to `wait` seconds for one. 200: the action, its attempt, lease and credentialRef (the workspace owner, RN-082); 204: none came. Report it before leaseUntil.',
        params: TypeParams,
        querystring: z.object({
          wait: z.coerce.number().min(0).max(MAX_WAIT_S).default(25),
          leaseSeconds: LeaseSeconds.optional(),
        }),
        response: { 200: ClaimedSchema, 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const service = executors?.();
      if (!service) return disabled(reply);
      const { wait, leaseSeconds } = request.query;
      // The executor gave up waiting (closed its connection): stop before claiming for nobody.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.sent) gone.abort();
      };
      reply.raw.on('close', onClose);
      const claimed = await service
        .claim(request.params.type, executorOf(request), {
          waitMs: wait * 1000,
          leaseMs: leaseSeconds === undefined ? undefined : leaseSeconds * 1000,
          signal: gone.signal,
        })
        .finally(() => reply.raw.off('close', onClose));
      return claimed ? claimed : reply.code(204).send(null);
    },
  );

  app.post(
    '/api/executors/:type/dispatches/:dispatchId/extend',
    {
      schema: {
        tags: ['executors'],
        description: 'Extends the lease of a claimed attempt (still working on it). 409 once it is settled or stale.',
        params: DispatchParams,
        body: z.object(ExtendFields),
        response: {
          200: z.object({ dispatchId: z.string(), attempt: z.number(), leaseUntil: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const service = executors?.();
      if (!service) return disabled(reply);
      const { attempt, leaseSeconds } = request.body;
      return service.extend(
        request.params.type,
        request.params.dispatchId,
        executorOf(request),
        attempt,
        leaseSeconds === undefined ? undefined : leaseSeconds * 1000,
      );
    },
  );

  app.post(
    '/api/executors/:type/dispatches/:dispatchId/report',
    {
      schema: {
        tags: ['executors'],
        description:
          'Reports a claimed attempt: `executed`, or `failed` with `code` and `message`. Settles the action and wakes the agent (task.action_settled); a git_merge report records the merge (RN-628). A report after the lease ended replaces its outcome_unknown. 409 dispatch_settled / stale_attempt: the report could not change the outcome and is kept as action.late_result; do not resend it.',
        params: DispatchParams,
        body: z.object({ ...ReportFields, detail: FreeObject.optional() }),
        response: { 200: ReportedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const service = executors?.();
      if (!service) return disabled(reply);
      const answer = await service.report(
        request.params.type,
        request.params.dispatchId,
        executorOf(request),
        request.body,
      );
      if (answer.recorded === 'late_result')
        return reply.code(409).send({ error: answer.code, message: answer.message, recorded: 'late_result' });
      return answer;
    },
  );
};
