import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import { actingUserOf } from '../../auth/acting.ts';
import type { Store } from '../../store/types.ts';
import { errorResponses, Id, ProjectParams, UserBody } from '../schemas.ts';

const ProposalResponse = z.object({
  id: z.string(),
  status: z.enum(['pending', 'auto_approved', 'approved', 'denied']),
  reason: z.string(),
});

export const containerRoutes: FastifyPluginAsyncZod<{ actions: Actions; store: Store }> = async (
  app,
  { actions, store },
) => {
  app.get(
    '/api/containers',
    {
      schema: {
        tags: ['containers'],
        response: {
          200: z.object({
            containers: z.array(
              z.object({
                projectId: z.string(),
                projectName: z.string(),
                executionMode: z.string(),
                state: z.string(),
                containerId: z.string().nullable(),
                updatedAt: z.string(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const all = await actions.listContainers();
      // A human token sees the containers of its own projects only.
      const principal = request.auth?.principal;
      if (principal?.kind !== 'human') return { containers: all };
      const visible = [];
      for (const c of all)
        if ((await store.read.members.get(c.projectId, principal.memberId))?.kind === 'human') visible.push(c);
      return { containers: visible };
    },
  );

  for (const change of ['stop', 'remove'] as const) {
    app.post(
      `/api/containers/:projectId/${change}`,
      {
        schema: {
          tags: ['containers'],
          description: `The containers page's "${change}" click: proposes container_${change} with the human as proposer.`,
          params: z.object({ projectId: Id }),
          body: UserBody,
          response: { 201: ProposalResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { action } = await actions.proposeContainerChange(
          request.params.projectId,
          actingUserOf(request),
          change,
        );
        return reply.code(201).send({ id: action.id, status: action.status, reason: action.reason });
      },
    );
  }

  app.post(
    '/api/projects/:id/handoffs/infra/accept',
    {
      schema: {
        tags: ['handoffs'],
        description:
          'Accepts the Infra handoff: pre-seeds container_start auto_approve for the infra agent and proposes container_start with every field omitted.',
        params: ProjectParams,
        body: UserBody,
        response: { 201: ProposalResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { action } = await actions.acceptInfraHandoff(request.params.id, actingUserOf(request));
      return reply.code(201).send({ id: action.id, status: action.status, reason: action.reason });
    },
  );
};
