// The one error type use cases throw for a refused request. `code` is the wire code (the spec's
// literal codes where it has them); `kind` maps to an HTTP status in src/http; nothing is changed
// when one is thrown.
export type ActionErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict' | 'too_many' | 'unavailable';

export class ActionError extends Error {
  override name = 'ActionError';
  readonly code: string;
  readonly kind: ActionErrorKind;
  readonly detail: Record<string, unknown> | undefined;

  constructor(kind: ActionErrorKind, code: string, message: string, detail?: Record<string, unknown>) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.detail = detail;
  }
}

export const notFound = (what: 'project' | 'action' | 'task', id: string): ActionError =>
  new ActionError('not_found', `${what}_not_found`, `no ${what} with id ${id}`);
