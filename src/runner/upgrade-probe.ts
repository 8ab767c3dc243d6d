// One plain WebSocket upgrade to learn what the phoenix client cannot see: the HTTP status of a
// refused upgrade. The gateway answers a bad token with 403 at the upgrade, which the phoenix
// client only experiences as an endless series of connection errors.
import WebSocket from 'ws';

export type ProbeOutcome =
  { kind: 'accepted' } | { kind: 'refused'; status: number } | { kind: 'unreachable'; message: string };

export function probeUpgrade(url: string, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: ProbeOutcome): void => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
    socket.on('unexpected-response', (request, response) => {
      finish({ kind: 'refused', status: response.statusCode ?? 0 });
      response.resume();
      request.destroy();
    });
    socket.on('open', () => {
      finish({ kind: 'accepted' });
      socket.close(1000, 'probe');
    });
    socket.on('error', (error) => finish({ kind: 'unreachable', message: error.message }));
    socket.on('close', () => finish({ kind: 'unreachable', message: 'closed before the upgrade completed' }));
  });
}

export const TOKEN_REFUSED_MESSAGE =
  "the server refused this runner's token (HTTP 403): create a new token with POST /api/projects/:id/runner-tokens";
