import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reasonSentence } from '../../live/reason-sentence.ts';
import type { Actions } from '../../actions/index.ts';
import type { ExecutionApi } from '../../execution/service.ts';
import { actingUserOf } from '../../auth/acting.ts';
import type { Store } from '../../store/types.ts';
import {
  ActingUser,
  ActionParams,
  ActionSchema,
  ActionTypeSchema,
  errorResponses,
  FreeObject,
  ProjectParams,
  UserBody,
} from '../schemas.ts';
import { MemberId } from '../schemas.ts';

const Propose = z.object({
  agentId: MemberId,
  actionType: ActionTypeSchema,
  payload: FreeObject.default({}),
});

const ProposeResponse = z.object({
  id: z.string(),
  status: z.enum(['pending', 'auto_approved', 'denied']),
  reason: z.string(),
  reasonCode: z.string(),
  scopeRoot: z.string().nullable(),
  /** RN-614: reason and scope root in one sentence (src/live/reason-sentence.ts, as the console shows it). */
  reasonSentence: z.string(),
  permissionsProblem: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Auto-approved: the execution as it stood when the bounded wait ended (outcome when it finished). */
  execution: z
    .lazy(() => DispatchSchema)
    .nullable()
    .optional(),
});

const DispatchSchema = z.object({
  dispatchId: z.string(),
  state: z.string(),
  attempt: z.number(),
  target: z.string().nullable(),
  outcome: z.record(z.string(), z.unknown()).nullable(),
  updatedAt: z.string(),
});
const TurnSchema = z
  .object({ agentId: z.string(), taskId: z.string().nullable(), state: z.string(), message: z.string() })
  .nullable();
const SettlementSchema = z.object({
  actionId: z.string(),
  state: z.enum(['pending', 'executing', 'settled']),
  settlement: z.record(z.string(), z.unknown()).nullable(),
  turn: TurnSchema,
  /** While executing: an external executor's claim or report it waits for (README "External executors"). */
  waiting: z.object({ for: z.enum(['external_executor', 'executor_report']), message: z.string() }).nullable(),
});

const Desfecho = z.enum(['aprovada', 'ja_aprovada', 'recusada', 'ja_recusada']);
const ReviewResponse = z.object({ desfecho: Desfecho, action: ActionSchema });

const ExecutionSchema = z
  .object({ status: z.string(), outcome: z.record(z.string(), z.unknown()).nullable(), updatedAt: z.string() })
  .nullable();

export const actionRoutes: FastifyPluginAsyncZod<{ actions: Actions; store: Store; execution?: ExecutionApi }> = async (
  app,
  { actions, execution },
) => {
  app.post(
    '/api/projects/:id/actions',
    {
      schema: {
        tags: ['actions'],
        description:
          'An agent proposes an action. An auto-approved action has been handed to execution when this returns.',
        params: ProjectParams,
        body: Propose,
        response: { 201: ProposeResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { agentId, actionType, payload } = request.body;
      const outcome = await actions.propose({ projectId: request.params.id, proposerId: agentId, actionType, payload });
      const { action } = outcome;
      // RN: auto-approval returns its result in the same turn (bounded by the command's timeout).
      const dispatched =
        execution && action.status === 'auto_approved'
          ? await execution.awaitOutcome(action.id, execution.proposeWaitMs(payload))
          : undefined;
      return reply.code(201).send({
        ...(dispatched !== undefined ? { execution: dispatched } : {}),
        id: action.id,
        status: action.status as 'pending' | 'auto_approved' | 'denied',
        reason: action.reason,
        reasonCode: action.reasonCode,
        scopeRoot: action.scopeRoot,
        reasonSentence: reasonSentence(action),
        permissionsProblem: outcome.permissionsProblem,
      });
    },
  );

  app.get(
    '/api/projects/:id/actions',
    {
      schema: {
        tags: ['actions'],
        params: ProjectParams,
        querystring: z.object({
          status: z.enum(['pending', 'auto_approved', 'approved', 'denied']).optional(),
          limit: z.coerce.number().int().min(1).max(1000).default(200),
        }),
        response: { 200: z.object({ actions: z.array(ActionSchema) }), ...errorResponses },
      },
    },
    async (request) => {
      const list = await actions.listActions(request.params.id, request.query.status, request.query.limit);
      // An agent token reads its own proposals only.
      const principal = request.auth?.principal;
      return { actions: principal?.kind === 'agent' ? list.filter((a) => a.proposerId === principal.agentId) : list };
    },
  );

  app.get(
    '/api/actions/:id',
    {
      schema: {
        tags: ['actions'],
        params: ActionParams,
        response: {
          200: ActionSchema.extend({
            reasonSentence: z.string(),
            execution: ExecutionSchema,
            dispatch: DispatchSchema.nullable().optional(),
            turn: TurnSchema.optional(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const view = await actions.getAction(request.params.id);
      const extra = execution ? await execution.describe(request.params.id) : null;
      return {
        ...view.action,
        reasonSentence: reasonSentence(view.action),
        execution: view.execution,
        ...(extra ? { dispatch: extra.dispatch, turn: extra.turn } : {}),
      };
    },
  );

  app.get(
    '/api/actions/:id/settlement',
    {
      schema: {
        tags: ['actions'],
        description:
          'Long-poll for an agent waiting on an action: answers at once when settled, else waits up to `wait` seconds. `settlement` is the task.action_settled payload (the execution result, or the denial reason); `turn` says whether a turn is still waiting (after a restart it is lost).',
        params: ActionParams,
        querystring: z.object({ wait: z.coerce.number().min(0).max(120).default(0) }),
        response: { 200: SettlementSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!execution)
        return reply.code(503).send({
          error: 'execution_disabled',
          message: 'this gateway runs without the execution dispatcher; start it with `brabo serve`',
        });
      const view = await execution.settlement(request.params.id, request.query.wait * 1000);
      if (!view)
        return reply.code(404).send({ error: 'action_not_found', message: `no action with id ${request.params.id}` });
      return view;
    },
  );

  app.post(
    '/api/actions/:id/approve',
    {
      schema: {
        tags: ['actions'],
        params: ActionParams,
        body: UserBody,
        response: { 200: ReviewResponse, ...errorResponses },
      },
    },
    async (request) => actions.approve(request.params.id, actingUserOf(request)),
  );

  app.post(
    '/api/actions/:id/deny',
    {
      schema: {
        tags: ['actions'],
        params: ActionParams,
        body: z.object({ ...ActingUser, reason: z.string().trim().min(1).max(2000) }),
        response: { 200: ReviewResponse, ...errorResponses },
      },
    },
    async (request) => actions.deny(request.params.id, actingUserOf(request), request.body.reason),
  );

  app.post(
    '/api/actions/:id/approve-always',
    {
      schema: {
        tags: ['actions'],
        description:
          '"Always allow" (RN-642/RN-675): approves and writes the pattern (or, for a module dev agent, an agent_autonomy row).',
        params: ActionParams,
        body: UserBody,
        response: {
          200: z.object({
            desfecho: z.enum(['aprovada', 'ja_aprovada']),
            action: ActionSchema,
            patterns: z.array(z.string()),
            autonomy: z
              .object({ agentId: z.string(), actionType: z.string(), mode: z.literal('auto_approve') })
              .nullable(),
            notWritten: z.object({ reason: z.string(), message: z.string() }).nullable(),
            keptWhole: z.object({ patterns: z.array(z.string()), message: z.string() }).nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => actions.approveAlways(request.params.id, actingUserOf(request)),
  );
};
