import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import type { Permissions } from '../../policy/index.ts';
import { actingUserOf } from '../../auth/acting.ts';
import {
  ActingUser,
  ActionTypeSchema,
  errorResponses,
  MemberId,
  PermissionsSchema,
  ProjectParams,
} from '../schemas.ts';

const AutonomyRuleSchema = z.object({
  projectId: z.string(),
  agentId: z.string(),
  actionType: z.string(),
  mode: z.enum(['auto_approve', 'require_approval', 'deny']),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});

const plain = (p: Permissions) => ({ allow: [...p.allow], deny: [...p.deny], ask: [...p.ask] });

export const permissionRoutes: FastifyPluginAsyncZod<{ actions: Actions }> = async (app, { actions }) => {
  app.get(
    '/api/projects/:id/permissions',
    {
      schema: {
        tags: ['permissions'],
        params: ProjectParams,
        response: {
          200: z.object({
            permissions: PermissionsSchema,
            broken: z.boolean(),
            exists: z.boolean(),
            problem: z
              .object({ code: z.string(), message: z.string(), issues: z.array(z.unknown()).optional() })
              .nullable(),
            warnings: z.array(z.string()),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const view = await actions.getPermissions(request.params.id);
      return { ...view, permissions: plain(view.permissions) };
    },
  );

  app.put(
    '/api/projects/:id/permissions',
    {
      schema: {
        tags: ['permissions'],
        params: ProjectParams,
        // allow/deny/ask are checked by the policy engine's own validator (its named errors); other
        // keys are kept (loose) so that a typo such as "alow" is refused by name, not dropped.
        body: z
          .object({
            ...ActingUser,
            allow: z.unknown().optional(),
            deny: z.unknown().optional(),
            ask: z.unknown().optional(),
          })
          .loose(),
        // warnings: entries kept but matching nothing (`GitPush(algo)`), one sentence each.
        response: {
          200: z.object({ permissions: PermissionsSchema, warnings: z.array(z.string()) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { userId: _userId, actingUserId: _actingUserId, ...raw } = request.body;
      const written = await actions.putPermissions(request.params.id, actingUserOf(request), raw);
      return { permissions: plain(written.permissions), warnings: written.warnings };
    },
  );

  app.put(
    '/api/projects/:id/agent-autonomy',
    {
      schema: {
        tags: ['agent-autonomy'],
        params: ProjectParams,
        body: z.object({
          ...ActingUser,
          agentId: MemberId,
          actionType: z.union([ActionTypeSchema, z.literal('*')]),
          mode: z.enum(['auto_approve', 'require_approval', 'deny', 'manual']),
        }),
        response: { 200: AutonomyRuleSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId: _userId, actingUserId: _actingUserId, ...rule } = request.body;
      return actions.setAgentAutonomy({ projectId: request.params.id, userId: actingUserOf(request), ...rule });
    },
  );

  app.get(
    '/api/projects/:id/agent-autonomy',
    {
      schema: {
        tags: ['agent-autonomy'],
        params: ProjectParams,
        response: { 200: z.object({ rules: z.array(AutonomyRuleSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ rules: await actions.listAgentAutonomy(request.params.id) }),
  );
};
