// Phoenix replies as the runner sees them, and the `{code, message}` Refusal the gateway puts in
// error replies (joins and pushes), read leniently: an older or foreign server may answer
// `{reason}` or something else entirely.

/** The server's answer to a push, or `timeout` when none came in time. */
export type ReplyStatus = 'ok' | 'error' | 'timeout';

export interface PushReply {
  status: ReplyStatus;
  response: unknown;
}

export interface ReplyRefusal {
  /** Empty when the reply names no code. */
  code: string;
  message: string;
}

export function readRefusal(response: unknown): ReplyRefusal {
  const fields = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  const code =
    [fields.code, fields.reason, fields.error].find((value): value is string => typeof value === 'string') ?? '';
  const message =
    typeof fields.message === 'string' ? fields.message : code === '' ? (JSON.stringify(response) ?? '') : '';
  return { code, message };
}

/** `code: message`, for one log or terminal line. */
export function describeRefusal({ code, message }: ReplyRefusal): string {
  if (code === '') return message || 'no reason given';
  return message === '' ? code : `${code}: ${message}`;
}
