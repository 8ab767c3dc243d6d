// Errors both store adapters raise.

export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  readonly code = 'store_closed';
  constructor() {
    super('the store is closed (the server is shutting down); retry against a running server');
  }
}
