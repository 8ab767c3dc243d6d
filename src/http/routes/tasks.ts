import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import { errorResponses, Id, ProjectParams } from '../schemas.ts';

const TaskSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  status: z.enum(['todo', 'in_progress', 'blocked', 'done']),
  prNumber: z.number().nullable(),
  blockedReason: z.string().nullable(),
  blockedSource: z.string().nullable(),
  updatedAt: z.string(),
});

export const taskRoutes: FastifyPluginAsyncZod<{ actions: Actions }> = async (app, { actions }) => {
  app.post(
    '/api/projects/:id/tasks',
    {
      schema: {
        tags: ['tasks'],
        params: ProjectParams,
        body: z.object({
          title: z.string().min(1).max(500),
          prNumber: z.number().int().positive().nullable().default(null),
        }),
        response: { 201: TaskSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await actions.createTask(request.params.id, request.body.title, request.body.prNumber)),
  );

  app.get(
    '/api/tasks/:id',
    { schema: { tags: ['tasks'], params: z.object({ id: Id }), response: { 200: TaskSchema, ...errorResponses } } },
    async (request) => actions.getTask(request.params.id),
  );
};
