// Reads the `{code, message}` Refusal the gateway puts in error replies (joins and pushes), leniently:
// an older or foreign server may answer `{reason}` or something else entirely.

export interface ReplyRefusal {
  /** Empty when the reply names no code. */
  code: string;
  message: string;
}

export function readRefusal(response: unknown): ReplyRefusal {
  const fields = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  const code = [fields.code, fields.reason, fields.error].find((value): value is string => typeof value === 'string') ?? '';
  const message = typeof fields.message === 'string' ? fields.message : code === '' ? (JSON.stringify(response) ?? '') : '';
  return { code, message };
}

/** `code: message`, for one log or terminal line. */
export function describeRefusal({ code, message }: ReplyRefusal): string {
  if (code === '') return message || 'no reason given';
  return message === '' ? code : `${code}: ${message}`;
}
