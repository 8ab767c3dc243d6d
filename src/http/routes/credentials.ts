// Credentials: mint (the secret is in this answer only), list, revoke; and `GET /api/me`, which
// tells any caller what its own credential is and which projects it reaches (the console logs in
// with it).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CredentialService } from '../../auth/credentials.ts';
import { CREDENTIAL_KINDS, MINTABLE_KINDS, type Principal } from '../../auth/principal.ts';
import type { Store } from '../../store/types.ts';
import { errorResponses, Id, MemberId } from '../schemas.ts';

const Kind = z.enum(MINTABLE_KINDS);
const CredentialSchema = z.object({
  id: z.string(),
  kind: Kind,
  projectId: z.string().nullable(),
  agentId: z.string().nullable(),
  memberId: z.string().nullable(),
  name: z.string().nullable(),
  label: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

const Mint = z.object({
  kind: Kind,
  projectId: Id.optional(),
  agentId: MemberId.optional(),
  memberId: MemberId.optional(),
  name: MemberId.optional(),
  label: z.string().min(1).max(200).optional(),
  expiresAt: z.string().min(1).max(64).optional(),
  expiresInSeconds: z
    .number()
    .int()
    .positive()
    .max(10 * 365 * 24 * 3600)
    .optional(),
});

/** Most projects `GET /api/me` lists for a human (the console's own lists are bounded alike). */
const ME_PROJECTS_LIMIT = 1000;

const principalOf = (request: { auth: { principal: Principal } | null }): Principal => {
  if (!request.auth) throw new Error('credential routes run behind the authorization guard');
  return request.auth.principal;
};

export const credentialRoutes: FastifyPluginAsyncZod<{ credentials: CredentialService; store: Store }> = async (
  app,
  { credentials, store },
) => {
  app.post(
    '/api/credentials',
    {
      schema: {
        tags: ['credentials'],
        description:
          'Mints a credential: admin {name?}, agent {projectId, agentId}, human {memberId}, service {name}, runner {projectId}, executor {name, projectId?}; optional label and expiry. The token is shown once; only its sha256 is stored.',
        body: Mint,
        response: { 201: CredentialSchema.extend({ token: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await credentials.mint(request.body, principalOf(request))),
  );

  app.get(
    '/api/credentials',
    {
      schema: {
        tags: ['credentials'],
        description: 'Lists credentials (never their secrets). Revoked ones only with includeRevoked=true.',
        querystring: z.object({
          kind: Kind.optional(),
          projectId: Id.optional(),
          subject: MemberId.optional(),
          includeRevoked: z.enum(['true', 'false']).optional(),
          limit: z.coerce.number().int().min(1).max(1000).default(500),
        }),
        response: { 200: z.object({ credentials: z.array(CredentialSchema) }), ...errorResponses },
      },
    },
    async (request) => {
      const { includeRevoked, ...filter } = request.query;
      return { credentials: await credentials.list({ ...filter, includeRevoked: includeRevoked === 'true' }) };
    },
  );

  app.delete(
    '/api/credentials/:id',
    {
      schema: {
        tags: ['credentials'],
        description: 'Revokes a credential of any kind; its live sockets are closed (1008).',
        params: z.object({ id: Id }),
        response: { 200: z.object({ credential: CredentialSchema, socketsClosed: z.number() }), ...errorResponses },
      },
    },
    async (request) => credentials.revoke(request.params.id, principalOf(request)),
  );

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['credentials'],
        description:
          'The calling credential: its kind, binding and the projects it reaches (a human: every project it is a human member of).',
        response: {
          200: z.object({
            kind: z.enum(CREDENTIAL_KINDS),
            credentialId: z.string(),
            memberId: z.string().nullable(),
            /** The acting user of a human token (= memberId); the console shows whose clicks these are. */
            userId: z.string().nullable(),
            agentId: z.string().nullable(),
            name: z.string().nullable(),
            expiresAt: z.string().nullable(),
            allProjects: z.boolean(),
            projects: z.array(
              z.object({ projectId: z.string(), projectName: z.string(), role: z.string().nullable() }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const base = {
        kind: p.kind,
        credentialId: p.credentialId,
        memberId: p.kind === 'human' ? p.memberId : null,
        userId: p.kind === 'human' ? p.memberId : null,
        agentId: p.kind === 'agent' ? p.agentId : null,
        name: p.kind === 'service' || p.kind === 'executor' ? p.name : null,
        expiresAt: p.expiresAt,
      };
      if (p.kind === 'human') {
        const projects: Array<{ projectId: string; projectName: string; role: string }> = [];
        for (const m of await store.read.members.listByMember(p.memberId, ME_PROJECTS_LIMIT)) {
          const project = m.kind === 'human' ? await store.read.projects.get(m.projectId) : null;
          if (project) projects.push({ projectId: project.id, projectName: project.name, role: m.role });
        }
        return { ...base, allProjects: false, projects };
      }
      if (p.kind === 'executor' && p.projectId !== null) {
        const project = await store.read.projects.get(p.projectId);
        return {
          ...base,
          allProjects: false,
          projects: project ? [{ projectId: project.id, projectName: project.name, role: null }] : [],
        };
      }
      if (p.kind === 'agent' || p.kind === 'runner') {
        const project = await store.read.projects.get(p.projectId);
        const role = p.kind === 'agent' ? ((await store.read.members.get(p.projectId, p.agentId))?.role ?? null) : null;
        return {
          ...base,
          allProjects: false,
          projects: project ? [{ projectId: project.id, projectName: project.name, role }] : [],
        };
      }
      return { ...base, allProjects: true, projects: [] };
    },
  );
};
