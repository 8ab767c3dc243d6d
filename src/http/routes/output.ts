// `GET /api/actions/:id/output`: an action's output as Server-Sent Events, for scripts (curl -N).
// The kept output is replayed first, then live chunks follow until the action settles; the stream
// ends with one `end` event. `Last-Event-ID` (or `?after=`) resumes after a given seq.
//
//   id: <seq>
//   event: output
//   data: {"seq":0,"stream":"stdout","data":"..."}
//
//   event: end
//   data: {"status":"executed"|"failed"|"denied","truncated":bool,"exitCode"?,"code"?,"message"?}
//
// An action settled so long ago that its live buffer is gone is answered from the recorded
// outcome (stdout then stderr) and its end.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actions } from '../../actions/index.ts';
import type { LiveEvent, LiveOutput, OutputEnd } from '../../live/live-output.ts';
import type { OutputChunk } from '../../live/output-buffer.ts';
import { ActionParams, errorResponses } from '../schemas.ts';

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/**
 * How often an open stream checks the store for a settlement it was not told about: in a cluster
 * the chunks and the end of an action running elsewhere are mirrored here (src/live/output-relay.ts),
 * but pub/sub is at-most-once, and a lost end must not leave the stream open.
 */
const SETTLE_CHECK_MS = 2_000;

export const outputRoutes: FastifyPluginAsyncZod<{ actions: Actions; live: LiveOutput }> = async (
  app,
  { actions, live },
) => {
  app.get(
    '/api/actions/:id/output',
    {
      schema: {
        tags: ['actions'],
        description:
          "The action's output as Server-Sent Events (text/event-stream): `output` events `{seq, stream, data}` (replay of what is kept, then live) and one final `end` event `{status, truncated, exitCode?, code?, message?}` when the action settles. Resume with `Last-Event-ID` or `?after=<seq>`. At most the outcome cap per stream is kept and streamed.",
        params: ActionParams,
        querystring: z.object({ after: z.coerce.number().int().min(-1).optional() }),
        response: { 200: z.string().describe('text/event-stream'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actionId = request.params.id;
      await actions.getAction(actionId); // 404 action_not_found before the stream opens
      const lastEventId = Number.parseInt(String(request.headers['last-event-id'] ?? ''), 10);
      const after = request.query.after ?? (Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : -1);

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(': brabo action output\n\n');

      let done = false;
      let heartbeat: NodeJS.Timeout | null = null;
      let settleCheck: NodeJS.Timeout | null = null;
      const stopTimers = (): void => {
        if (heartbeat) clearInterval(heartbeat);
        if (settleCheck) clearInterval(settleCheck);
      };
      const writeChunk = (chunk: OutputChunk): void => {
        if (!done) res.write(`id: ${chunk.seq}\nevent: output\ndata: ${JSON.stringify(chunk)}\n\n`);
      };
      const finish = async (end: OutputEnd): Promise<void> => {
        if (done) return;
        done = true;
        stopTimers();
        watch.close();
        const detail = await settledDetail(actions, actionId).catch(() => ({}));
        res.end(`event: end\ndata: ${JSON.stringify({ ...end, ...detail })}\n\n`);
      };
      // Chunks that arrive while the replay is being written wait here, so order holds.
      let queued: LiveEvent[] | null = [];
      const onEvent = (event: LiveEvent): void => {
        if (queued) queued.push(event);
        else deliver(event);
      };
      const deliver = (event: LiveEvent): void => {
        if (event.kind === 'chunk') writeChunk(event.chunk);
        else void finish(event.end);
      };
      const watch = live.watch(actionId, after, onEvent);
      request.raw.on('close', () => {
        done = true;
        stopTimers();
        watch.close();
      });
      for (const chunk of watch.replay) writeChunk(chunk);
      if (watch.ended) return void finish(watch.ended);

      // Not held live: it may be settled already (buffer evicted, restart) or not yet running.
      const stored = await storedState(actions, actionId).catch(() => null);
      if (stored?.settled && watch.replay.length === 0 && !done) {
        const pending = queued;
        queued = null;
        if (pending.some((e) => e.kind === 'end')) {
          for (const event of pending) deliver(event);
          return;
        }
        let seq = 0;
        for (const stream of ['stdout', 'stderr'] as const) {
          const text = stored.outcome?.[stream];
          if (typeof text === 'string' && text.length > 0 && seq > after) writeChunk({ seq, stream, data: text });
          if (typeof text === 'string' && text.length > 0) seq++;
        }
        return void finish({ status: stored.settled, truncated: stored.outcome?.['truncated'] === true });
      }
      const pending = queued;
      queued = null;
      for (const event of pending) deliver(event);
      if (!done) {
        heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
        heartbeat.unref();
        settleCheck = setInterval(() => {
          void storedState(actions, actionId).then(
            (state) => {
              if (state.settled && !done)
                void finish({ status: state.settled, truncated: state.outcome?.['truncated'] === true });
            },
            () => {}, // a store hiccup: the next check (or the live end) finishes the stream
          );
        }, SETTLE_CHECK_MS);
        settleCheck.unref();
      }
    },
  );
};

async function storedState(
  actions: Actions,
  actionId: string,
): Promise<{ settled: OutputEnd['status'] | null; outcome: Record<string, unknown> | null }> {
  const view = await actions.getAction(actionId);
  if (view.action.status === 'denied') return { settled: 'denied', outcome: null };
  const status = view.execution?.status;
  if (status === 'executed' || status === 'failed')
    return { settled: status, outcome: view.execution?.outcome ?? null };
  return { settled: null, outcome: null };
}

/** Exit code (executed) or failure code and sentence (failed), from the recorded outcome. */
async function settledDetail(actions: Actions, actionId: string): Promise<Record<string, unknown>> {
  const view = await actions.getAction(actionId);
  if (view.action.status === 'denied') return { reason: view.action.denialReason };
  const outcome = view.execution?.outcome;
  if (!outcome) return {};
  if (outcome['status'] === 'executed') return { exitCode: outcome['exitCode'] ?? null };
  return { code: outcome['code'], message: outcome['message'] };
}
