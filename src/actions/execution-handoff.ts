// The default ActionExecutionPort until the dispatcher lands: the durable part (the `queued` row)
// is already written by the use case; this fans the notification out to whoever subscribed.
import type { Logger } from '../logger.ts';
import type { ActionExecutionPort } from './ports.ts';

export type HandoffListener = (actionId: string) => void;

export class HandoffNotifier implements ActionExecutionPort {
  readonly #listeners = new Set<HandoffListener>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  subscribe(listener: HandoffListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(actionId: string): void {
    this.#logger.debug({ actionId }, 'action handed off to execution (queued)');
    for (const listener of this.#listeners) {
      try {
        listener(actionId);
      } catch (error) {
        this.#logger.error(
          { actionId, err: error, code: 'handoff_listener_failed' },
          'a hand-off listener threw; the queued row stays for the next poll',
        );
      }
    }
  }
}
