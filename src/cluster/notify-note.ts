// The messages a NOTIFY carries (src/cluster/sql/publish-message.ts): `{o: origin, m: [[id, topic,
// event, payload], ...]}`, or an empty nudge. Anything else is null: the log is read instead.
import type { LoggedMessage } from './sql/read-messages.ts';

export function parseNote(body: string | undefined): LoggedMessage[] | null {
  if (!body) return null;
  let note: unknown;
  try {
    note = JSON.parse(body);
  } catch {
    return null;
  }
  if (note === null || typeof note !== 'object') return null;
  const { o: originNode, m: rows } = note as { o?: unknown; m?: unknown };
  if (typeof originNode !== 'string' || !Array.isArray(rows) || rows.length === 0) return null;
  const messages: LoggedMessage[] = [];
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 4) return null;
    const [id, topic, event, payload] = row as unknown[];
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    messages.push({ id, originNode, topic, event, payload });
  }
  return messages;
}
