// External executors on the socket: topic `executor:<type>` (executor token only, src/auth/table.ts).
// The same claims and reports as the HTTP routes, through the same ExecutorService, pushed
// instead of polled:
//   server -> `offer` {type}          an approved action of this type waits (also right after join)
//   client -> `claim` {leaseSeconds?} reply ok {action: ClaimedAction | null}
//   client -> `report` {dispatchId, attempt, status, code?, message?, output?, detail?}
//                                     reply ok {recorded, state}, or error {code, message}
//   client -> `extend` {dispatchId, attempt, leaseSeconds?}
//                                     reply ok {dispatchId, attempt, leaseUntil}, or error {code, message}
import { z } from 'zod';
import { type ChannelContext, type ChannelModule, error, ok, type Reply } from '../../gateway/index.ts';
import { ActionError } from '../actions/errors.ts';
import { ExtendFields, LeaseSeconds, ReportFields } from './executor-wire.ts';
import type { ExecutorIdentity, ExecutorService } from './executors.ts';
import { isExternallyExecuted } from './external-types.ts';

export const EXECUTOR_TOPIC_PREFIX = 'executor:';

const Claim = z.object({ leaseSeconds: LeaseSeconds.optional() });
const Report = z.object({ dispatchId: z.string().min(1).max(200), ...ReportFields });
const Extend = z.object({ dispatchId: z.string().min(1).max(200), ...ExtendFields });

const refusal = (code: string, message: string): Reply => error({ code, message });

export class ExecutorChannel {
  readonly channel: ChannelModule;
  readonly #service: () => ExecutorService | null;
  /** Joined channels, by action type: told of offers of that type. */
  readonly #joined = new Map<string, Set<ChannelContext>>();
  /** Subscribed to the service's offers (once, for the life of the gateway: the service closes with it). */
  #subscribed = false;

  constructor(service: () => ExecutorService | null) {
    this.#service = service;
    this.channel = {
      join: (topic) => {
        const type = topic.slice(EXECUTOR_TOPIC_PREFIX.length);
        if (!isExternallyExecuted(type))
          return refusal(
            'not_an_executor_type',
            `${type} is not an action type an external executor runs (the gateway runs terminal and container_* itself)`,
          );
        if (!this.#service())
          return refusal('execution_disabled', 'this gateway runs without the execution dispatcher');
        return ok({ type });
      },
      afterJoin: (context) => void this.#joinedNow(context),
      handleIn: (event, payload, context) => this.#handle(event, payload, context),
      terminate: (_reason, context) => this.#joined.get(typeOf(context))?.delete(context),
    };
  }

  async #joinedNow(context: ChannelContext): Promise<void> {
    const type = typeOf(context);
    const set = this.#joined.get(type) ?? new Set();
    set.add(context);
    this.#joined.set(type, set);
    const service = this.#service();
    if (!service) return;
    if (!this.#subscribed) {
      service.onOffer((offered) => this.#offer(offered));
      this.#subscribed = true;
    }
    if (await service.hasQueued(type, identityOf(context))) context.push('offer', { type });
  }

  #offer(type: string | null): void {
    const targets =
      type === null ? [...this.#joined.values()].flatMap((set) => [...set]) : [...(this.#joined.get(type) ?? [])];
    for (const context of targets) if (context.alive) context.push('offer', { type: typeOf(context) });
  }

  async #handle(event: string, payload: unknown, context: ChannelContext): Promise<Reply> {
    const service = this.#service();
    if (!service) return refusal('execution_disabled', 'this gateway runs without the execution dispatcher');
    const type = typeOf(context);
    const who = identityOf(context);
    try {
      switch (event) {
        case 'claim': {
          const { leaseSeconds } = parse(Claim, payload);
          const action = await service.claim(type, who, {
            waitMs: 0,
            leaseMs: leaseSeconds === undefined ? undefined : leaseSeconds * 1000,
          });
          return ok({ action });
        }
        case 'report': {
          const { dispatchId, ...report } = parse(Report, payload);
          const answer = await service.report(type, dispatchId, who, report);
          if (answer.recorded === 'late_result')
            return error({ code: answer.code, message: answer.message, recorded: 'late_result' });
          return ok(answer);
        }
        case 'extend': {
          const { dispatchId, attempt, leaseSeconds } = parse(Extend, payload);
          return ok(
            await service.extend(
              type,
              dispatchId,
              who,
              attempt,
              leaseSeconds === undefined ? undefined : leaseSeconds * 1000,
            ),
          );
        }
        default:
          return refusal('unknown_event', `executor:${type} accepts claim, report and extend; not ${event}`);
      }
    } catch (thrown) {
      if (thrown instanceof ActionError) return refusal(thrown.code, thrown.message);
      throw thrown; // a bug: the channel crashes (phx_error) and the executor rejoins
    }
  }
}

const typeOf = (context: ChannelContext): string => context.topic.slice(EXECUTOR_TOPIC_PREFIX.length);

function identityOf(context: ChannelContext): ExecutorIdentity {
  const { identity } = context;
  if (identity.kind !== 'executor') throw new Error('executor topics are joined with executor tokens only');
  return { credentialId: identity.credentialId ?? '', name: identity.name, projectId: identity.projectId };
}

function parse<T>(schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload ?? {});
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'} ${i.message}`).join('; ');
  throw new ActionError('invalid', 'invalid_request', `the message does not match its schema: ${detail}`);
}
