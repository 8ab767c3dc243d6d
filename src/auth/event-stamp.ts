// Every event records the credential that caused it: `payload.credential = {id, kind}` (never the
// secret) and, for a service token, `payload.via = "service:<name>"`. The context is captured when
// the transaction is requested (the store may run the work later, from its own queue). Runner
// reports run as their runner token (src/execution/runner-sink-credential.ts); the dispatcher runs
// as the system actor; work that no credential started (timers armed at start-up, sweeps) has no
// context and is stamped as the system actor too, so no event is ever without a stamp.
import type { Repositories, Store } from '../store/types.ts';
import { credentialContext, type CredentialContext } from './context.ts';
import { SYSTEM_STAMP } from './principal.ts';

/** Delegates every member to `target` except the overridden ones (class methods included). */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, property, receiver) {
      if (Object.hasOwn(overrides, property)) return (overrides as Record<string | symbol, unknown>)[property];
      const value: unknown = Reflect.get(t, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

function stamped(tx: Repositories, context: CredentialContext): Repositories {
  const events = overriding(tx.events, {
    append: (event) =>
      tx.events.append({
        ...event,
        payload: {
          ...event.payload,
          credential: { id: context.id, kind: context.kind },
          ...(context.via ? { via: context.via } : {}),
        },
      }),
  });
  return overriding(tx, { events });
}

/** The same store; its transactions stamp the events they append with the current credential. */
export function withCredentialStamps<S extends Store>(store: S): S {
  const transaction = <T>(work: (tx: Repositories) => Promise<T>): Promise<T> => {
    const context = credentialContext.getStore() ?? { ...SYSTEM_STAMP, actingUserId: null };
    return store.transaction((tx) => work(stamped(tx, context)));
  };
  return overriding<S>(store, { transaction } as Partial<S>);
}
