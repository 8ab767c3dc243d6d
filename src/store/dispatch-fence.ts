// The one rule both store adapters apply before a settling write (DispatchRepository.finish): a
// final row (executed, failed) never changes again, so a fence naming only final states matches
// nothing and the write is not even sent.
import type { DispatchFence, DispatchState } from './types.ts';

const FINAL: ReadonlySet<DispatchState> = new Set(['executed', 'failed']);

/**
 * Runs `write` with the states of `fence.from` that may still be settled; false, without calling
 * it, when none are left.
 */
export function withinOpenFence<T>(fence: DispatchFence, write: (from: DispatchState[]) => T): T | false {
  const from = fence.from.filter((state) => !FINAL.has(state));
  return from.length === 0 ? false : write(from);
}
