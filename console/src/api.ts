// The console's HTTP client: every call carries the token the user logged in with, so every
// approval, denial or edit is that token's (a human token acts as its member). Errors keep the
// gateway's `{error, message}` so pages can show the sentence and the named code.
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body['message'] === 'string' ? body['message'] : `request failed with HTTP ${status}`);
    this.status = status;
    this.code = typeof body['error'] === 'string' ? body['error'] : `http_${status}`;
    this.body = body;
  }
}

/** GET /api/me: the calling credential. A human token acts as `userId`. */
export interface Me {
  kind: 'admin' | 'human' | 'service' | 'agent' | 'runner' | 'executor';
  userId: string | null;
}

/** Kinds that can use the console: a human acts as itself; a service token names the member. */
export const CONSOLE_KINDS: ReadonlyArray<Me['kind']> = ['human', 'service'];

export class Api {
  readonly token: string;
  constructor(token: string) {
    this.token = token;
  }

  get<T>(path: string): Promise<T> {
    return this.#call<T>('GET', path);
  }
  post<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('POST', path, body);
  }
  put<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('PUT', path, body);
  }

  /** Reads an SSE endpoint with the token (EventSource cannot send headers). */
  async stream(path: string, onEvent: (event: string, data: any) => void, signal: AbortSignal): Promise<void> {
    const response = await fetch(path, {
      headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' },
      signal,
    });
    if (!response.ok || !response.body) throw new ApiError(response.status, await response.json().catch(() => ({})));
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, cut);
        text = text.slice(cut + 2);
        let event = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) onEvent(event, JSON.parse(data));
      }
    }
  }

  /** Sets the HttpOnly console cookie to this token: the console's own files need it to load. */
  openSession(): Promise<void> {
    return this.#call<void>('POST', '/console/session');
  }

  /** Clears the console cookie (logging out closes the console's files too). */
  closeSession(): Promise<void> {
    return this.#call<void>('DELETE', '/console/session');
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : null;
    } catch {
      parsed = { error: `http_${response.status}`, message: text.slice(0, 300) };
    }
    if (!response.ok) throw new ApiError(response.status, (parsed ?? {}) as Record<string, unknown>);
    return parsed as T;
  }
}
