// Counts the Docker broker's failures by code (brabo_broker_failures_total) without touching the
// broker: every method that resolves to a BrokerResult is watched, whichever caller made the call
// (dispatch, reconcile at start-up, the containers page, readiness). Failures are results, never
// exceptions (broker/port.ts), so an `{ ok: false, failure: { code } }` is all there is to see.
export function countBrokerFailures<T extends object>(broker: T, onFailure: (code: string) => void): T {
  return new Proxy(broker, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        // The real broker as `this`: its private fields are not reachable through the proxy.
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) {
          void result.then(
            (settled: unknown) => {
              const failure = (settled as { ok?: unknown; failure?: { code?: unknown } } | null) ?? null;
              if (failure?.ok === false && typeof failure.failure?.code === 'string') onFailure(failure.failure.code);
            },
            () => {},
          );
        }
        return result;
      };
    },
  });
}
