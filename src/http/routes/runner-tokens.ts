import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import type { ExecutionApi } from '../../execution/service.ts';
import type { RunnerTokenRepository } from '../../store/types.ts';
import { errorResponses, Id, ProjectParams } from '../schemas.ts';

export const runnerTokenRoutes: FastifyPluginAsyncZod<{
  actions: Actions;
  runnerTokens: RunnerTokenRepository;
  execution?: ExecutionApi;
}> = async (app, { actions, runnerTokens, execution }) => {
  app.post(
    '/api/projects/:id/runner-tokens',
    {
      schema: {
        tags: ['runner-tokens'],
        description:
          'Issues a token scoped to this project for `brabo runner --token`. Shown once; only its sha256 is stored.',
        params: ProjectParams,
        response: {
          201: z.object({ token: z.string(), tokenId: z.string(), projectId: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const project = await actions.getProject(request.params.id);
      return reply.code(201).send(await runnerTokens.create(project.id));
    },
  );

  app.delete(
    '/api/projects/:id/runner-tokens/:tokenId',
    {
      schema: {
        tags: ['runner-tokens'],
        params: z.object({ id: Id, tokenId: Id }),
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const owner = await runnerTokens.projectOf(request.params.tokenId);
      if (owner !== request.params.id) {
        return reply.code(404).send({
          error: 'runner_token_not_found',
          message: `project ${request.params.id} has no runner token ${request.params.tokenId}`,
        });
      }
      await runnerTokens.revoke(request.params.tokenId);
      // A revoked token must not keep a live socket: close its runners now (they see 1008).
      const closed = execution?.disconnectRunnerToken(request.params.tokenId) ?? 0;
      if (closed > 0)
        request.log.info(
          { code: 'runner_token_revoked', tokenId: request.params.tokenId, socketsClosed: closed },
          'revoked runner token; its live sockets were closed',
        );
      return reply.code(204).send(undefined);
    },
  );
};
