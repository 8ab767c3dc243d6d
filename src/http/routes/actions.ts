import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import { ActionParams, ActionSchema, ActionTypeSchema, errorResponses, MemberId, ProjectParams, UserBody } from '../schemas.ts';

const Propose = z.object({
  agentId: MemberId,
  actionType: ActionTypeSchema,
  payload: z.record(z.string(), z.unknown()).default({}),
});

const ProposeResponse = z.object({
  id: z.string(),
  status: z.enum(['pending', 'auto_approved', 'denied']),
  reason: z.string(),
  reasonCode: z.string(),
  scopeRoot: z.string().nullable(),
  permissionsProblem: z.object({ code: z.string(), message: z.string() }).nullable(),
});

const Desfecho = z.enum(['aprovada', 'ja_aprovada', 'recusada', 'ja_recusada']);
const ReviewResponse = z.object({ desfecho: Desfecho, action: ActionSchema });

const ExecutionSchema = z.object({ status: z.string(), outcome: z.record(z.string(), z.unknown()).nullable(), updatedAt: z.string() }).nullable();

export const actionRoutes: FastifyPluginAsyncZod<{ actions: Actions }> = async (app, { actions }) => {
  app.post(
    '/api/projects/:id/actions',
    {
      schema: {
        tags: ['actions'],
        description: 'An agent proposes an action. An auto-approved action has been handed to execution when this returns.',
        params: ProjectParams,
        body: Propose,
        response: { 201: ProposeResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { agentId, actionType, payload } = request.body;
      const outcome = await actions.propose({ projectId: request.params.id, proposerId: agentId, actionType, payload });
      const { action } = outcome;
      return reply.code(201).send({
        id: action.id,
        status: action.status as 'pending' | 'auto_approved' | 'denied',
        reason: action.reason,
        reasonCode: action.reasonCode,
        scopeRoot: action.scopeRoot,
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
    async (request) => ({ actions: await actions.listActions(request.params.id, request.query.status, request.query.limit) }),
  );

  app.get(
    '/api/actions/:id',
    { schema: { tags: ['actions'], params: ActionParams, response: { 200: ActionSchema.extend({ execution: ExecutionSchema }), ...errorResponses } } },
    async (request) => {
      const view = await actions.getAction(request.params.id);
      return { ...view.action, execution: view.execution };
    },
  );

  app.post(
    '/api/actions/:id/approve',
    { schema: { tags: ['actions'], params: ActionParams, body: UserBody, response: { 200: ReviewResponse, ...errorResponses } } },
    async (request) => actions.approve(request.params.id, request.body.userId),
  );

  app.post(
    '/api/actions/:id/deny',
    {
      schema: {
        tags: ['actions'],
        params: ActionParams,
        body: z.object({ userId: MemberId, reason: z.string().trim().min(1).max(2000) }),
        response: { 200: ReviewResponse, ...errorResponses },
      },
    },
    async (request) => actions.deny(request.params.id, request.body.userId, request.body.reason),
  );

  app.post(
    '/api/actions/:id/approve-always',
    {
      schema: {
        tags: ['actions'],
        description: '"Always allow" (RN-642/RN-675): approves and writes the pattern (or, for a module dev agent, an agent_autonomy row).',
        params: ActionParams,
        body: UserBody,
        response: {
          200: z.object({
            desfecho: z.enum(['aprovada', 'ja_aprovada']),
            action: ActionSchema,
            patterns: z.array(z.string()),
            autonomy: z.object({ agentId: z.string(), actionType: z.string(), mode: z.literal('auto_approve') }).nullable(),
            notWritten: z.object({ reason: z.string(), message: z.string() }).nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => actions.approveAlways(request.params.id, request.body.userId),
  );
};
