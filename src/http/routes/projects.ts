import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import { actingUserOf, optionalActingUserOf } from '../../auth/acting.ts';
import { errorResponses, FreeObject, MemberId, ProjectParams, RoleSchema, UserBody } from '../schemas.ts';

const ModuleName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lowercase letters, digits, _ and -');

const CreateProject = z.object({
  name: z.string().min(1).max(200),
  executionMode: z.enum(['container', 'mounted', 'runner']),
  root: z.string().min(1).max(4096).optional(),
  ownerId: MemberId,
  moduleMap: z.record(ModuleName, FreeObject).optional(),
  /** Issue 9 B.3: auto-approved commands only run on a runner that sandboxes them. */
  sandboxRequired: z.boolean().optional(),
});

const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  executionMode: z.enum(['container', 'mounted', 'runner']),
  root: z.string(),
  workspaceDirName: z.string(),
  ownerId: z.string(),
  moduleMap: z.record(z.string(), z.record(z.string(), z.unknown())),
  executionActivatedAt: z.string().nullable(),
  createdAt: z.string(),
  sandboxRequired: z.boolean().optional(),
});

const MemberSchema = z.object({
  projectId: z.string(),
  memberId: z.string(),
  kind: z.enum(['human', 'agent']),
  role: RoleSchema,
  updatedAt: z.string(),
});

export const projectRoutes: FastifyPluginAsyncZod<{ actions: Actions }> = async (app, { actions }) => {
  app.post(
    '/api/projects',
    { schema: { tags: ['projects'], body: CreateProject, response: { 201: ProjectSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await actions.createProject(request.body)),
  );

  app.get(
    '/api/projects/:id',
    { schema: { tags: ['projects'], params: ProjectParams, response: { 200: ProjectSchema, ...errorResponses } } },
    async (request) => actions.getProject(request.params.id),
  );

  app.put(
    '/api/projects/:id/members/:userId',
    {
      schema: {
        tags: ['members'],
        description:
          "Adds a member (kind human unless given) or changes its role; a member's kind never changes (409 member_kind_immutable). `actingUserId`, when sent, must be a human owner of the project.",
        params: z.object({ id: z.string(), userId: MemberId }),
        body: z.object({
          role: RoleSchema,
          kind: z.enum(['human', 'agent']).optional(),
          actingUserId: MemberId.optional(),
        }),
        response: { 200: MemberSchema, ...errorResponses },
      },
    },
    async (request) =>
      actions.setMember(
        request.params.id,
        request.params.userId,
        request.body.role,
        request.body.kind,
        optionalActingUserOf(request),
      ),
  );

  app.put(
    '/api/projects/:id/sandbox',
    {
      schema: {
        tags: ['projects'],
        description:
          "Requires (or stops requiring) that the project's auto-approved commands run in a runner sandbox. While required, such a command is failed as `sandbox_required` instead of being sent to a runner that reports no sandbox (or an older runner that reports nothing). `actingUserId`, when sent, must be a human owner.",
        params: ProjectParams,
        body: z.object({ required: z.boolean(), actingUserId: MemberId.optional() }),
        response: { 200: ProjectSchema, ...errorResponses },
      },
    },
    async (request) =>
      actions.setSandboxRequirement(request.params.id, request.body.required, optionalActingUserOf(request)),
  );

  app.get(
    '/api/projects/:id/members',
    {
      schema: {
        tags: ['members'],
        params: ProjectParams,
        response: { 200: z.object({ members: z.array(MemberSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ members: await actions.listMembers(request.params.id) }),
  );

  app.post(
    '/api/projects/:id/activate-execution',
    {
      schema: {
        tags: ['projects'],
        params: ProjectParams,
        body: UserBody,
        response: {
          200: z.object({ patternsAdded: z.array(z.string()), devAgents: z.array(z.string()) }),
          ...errorResponses,
        },
      },
    },
    async (request) => actions.activateExecution(request.params.id, actingUserOf(request)),
  );
};
