// In-process wake-ups for long-polls and the bounded wait of POST /actions. The durable truth is
// in the store; a wake-up only says "look again", so a missed one costs at most the timeout.

export class SettlementWaiters {
  readonly #waiting = new Map<string, Set<() => void>>();

  wake(actionId: string): void {
    const set = this.#waiting.get(actionId);
    if (!set) return;
    this.#waiting.delete(actionId);
    for (const resolve of set) resolve();
  }

  /**
   * Resolves when `actionId` is woken or after `ms`. `settled` is checked once after the waiter
   * is registered, closing the race with a settlement committed just before.
   */
  async wait(actionId: string, ms: number, settled: () => Promise<boolean>): Promise<void> {
    let resolve!: () => void;
    const woken = new Promise<void>((r) => (resolve = r));
    const set = this.#waiting.get(actionId) ?? new Set();
    set.add(resolve);
    this.#waiting.set(actionId, set);
    const timer = setTimeout(resolve, ms);
    try {
      if (await settled()) return;
      await woken;
    } finally {
      clearTimeout(timer);
      const current = this.#waiting.get(actionId);
      current?.delete(resolve);
      if (current?.size === 0) this.#waiting.delete(actionId);
    }
  }

  /** Wakes everyone (shutdown). */
  wakeAll(): void {
    for (const id of [...this.#waiting.keys()]) this.wake(id);
  }
}
