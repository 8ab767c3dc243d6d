// Final results waiting for the server's ok. A result stays here until the server replies: `ok`
// acknowledges it (and is journaled as such); `error` means the server settled it otherwise (stale
// attempt, unknown dispatch) and is logged, except the gateway's "retry later" codes; `timeout`,
// a retryable error or a lost connection keep it for the next flush, which happens on every
// (re)join and periodically while joined. What is sent is cut to fit one frame (result-fit.ts);
// the journal keeps the full result. A `result_too_large` answer means the gateway recorded it
// (cut) as failed: like any final refusal, it is not sent again.
import type { Result } from '../../runner-protocol/index.ts';
import { PUSH_ERRORS, RUNNER_EVENTS } from '../../runner-protocol/index.ts';
import { describeRefusal, readRefusal } from './reply.ts';
import { fitResult } from './result-fit.ts';
import type { PushReply } from './reply.ts';

export interface PushChannel {
  canPush(): boolean;
  push(event: string, payload: object, timeoutMs: number): Promise<PushReply>;
}

export interface ResultOutboxOptions {
  channel: PushChannel;
  pushTimeoutMs: number;
  onAcknowledged: (result: Result) => void;
  onRejected: (result: Result, reason: string) => void;
}

export class ResultOutbox {
  readonly #options: ResultOutboxOptions;
  readonly #pending = new Map<string, Result>();
  readonly #sending = new Set<string>();

  constructor(options: ResultOutboxOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Queues the result and sends it now if the channel is joined. */
  deliver(result: Result): void {
    const key = keyOf(result);
    this.#pending.set(key, result);
    this.#send(key, result);
  }

  /** Sends everything not yet acknowledged; returns how many were (re)sent. */
  flush(): number {
    let sent = 0;
    for (const [key, result] of this.#pending) if (this.#send(key, result)) sent += 1;
    return sent;
  }

  #send(key: string, result: Result): boolean {
    if (this.#sending.has(key) || !this.#options.channel.canPush()) return false;
    this.#sending.add(key);
    void this.#options.channel
      .push(RUNNER_EVENTS.result, fitResult(result), this.#options.pushTimeoutMs)
      .then(({ status, response }) => {
        if (status === 'ok') {
          this.#pending.delete(key);
          this.#options.onAcknowledged(result);
        } else if (status === 'error' && !RETRYABLE.has(readRefusal(response).code)) {
          this.#pending.delete(key);
          this.#options.onRejected(result, describeRefusal(readRefusal(response)));
        }
      })
      .finally(() => this.#sending.delete(key));
    return true;
  }
}

/** Error replies that mean "not recorded, send it again later". */
const RETRYABLE: ReadonlySet<string> = new Set([PUSH_ERRORS.sinkUnavailable, PUSH_ERRORS.sinkFailed]);

const keyOf = (result: Result): string => `${result.attempt}:${result.dispatchId}`;
