import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import { errorResponses, ProjectParams } from '../schemas.ts';

const EventSchema = z.object({
  id: z.number(),
  projectId: z.string(),
  type: z.string(),
  actorKind: z.enum(['agent', 'user', 'system']),
  actorId: z.string().nullable(),
  actionId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const eventRoutes: FastifyPluginAsyncZod<{ actions: Actions }> = async (app, { actions }) => {
  app.get(
    '/api/projects/:id/events',
    {
      schema: {
        tags: ['events'],
        description: 'The session event log, oldest first. Pass the returned cursor as `after` to read on.',
        params: ProjectParams,
        querystring: z.object({
          after: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(1000).default(200),
        }),
        response: { 200: z.object({ events: z.array(EventSchema), cursor: z.number() }), ...errorResponses },
      },
    },
    async (request) => actions.listEvents(request.params.id, request.query.after, request.query.limit),
  );
};
