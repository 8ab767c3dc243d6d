// The real gateway (createRunnerGateway) on an HTTP server on port 0, with in-memory runner tokens
// and a sink that records what runners send, for tests that drive a real runner process.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Output, Result } from '../../../runner-protocol/index.ts';
import { createRunnerGateway, InMemoryRunnerTokens, tokenAuthenticator } from '../../../gateway/index.ts';
import type { RunnerGateway, RunnerSink, SinkAnswer } from '../../../gateway/index.ts';
import { waitFor } from './fixtures.ts';

export interface GatewayHarness {
  server: Server;
  url: string;
  tokens: InMemoryRunnerTokens;
  current: RunnerGateway;
  results: Array<{ projectId: string; result: Result }>;
  outputs: Output[];
  /** HTTP upgrade requests seen (accepted or refused). */
  upgrades: () => number;
  /** What onResult answers; default ok. */
  answer: (result: Result) => SinkAnswer;
  /** Closes the gateway (sockets drop) and, after `downMs`, attaches a fresh one. */
  restartGateway: (downMs: number) => Promise<void>;
  waitForResult: (dispatchId: string, attempt?: number, timeoutMs?: number) => Promise<Result>;
  close: () => Promise<void>;
}

export async function startGatewayHarness(): Promise<GatewayHarness> {
  const server = createServer((_request, response) => response.writeHead(404).end());
  let upgrades = 0;
  server.on('upgrade', (_request, socket) => {
    upgrades += 1;
    // While no gateway is attached (a restart), answer like a server that is down for a moment.
    if (server.listenerCount('upgrade') === 1)
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const tokens = new InMemoryRunnerTokens();
  const logger = pino({ level: 'silent' });

  const harness: GatewayHarness = {
    server,
    url: `ws://127.0.0.1:${port}/socket`,
    tokens,
    current: undefined as unknown as RunnerGateway,
    results: [],
    outputs: [],
    upgrades: () => upgrades,
    answer: () => ({ ok: true }),
    restartGateway: async (downMs) => {
      await harness.current.gateway.close();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      harness.current = attach();
    },
    waitForResult: async (dispatchId, attempt = 1, timeoutMs = 15_000) => {
      const find = () =>
        harness.results.find((entry) => entry.result.dispatchId === dispatchId && entry.result.attempt === attempt)
          ?.result;
      await waitFor(() => find() !== undefined, timeoutMs, `result of ${dispatchId} attempt ${attempt}`);
      return find() as Result;
    },
    close: async () => {
      await harness.current.gateway.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const sink: RunnerSink = {
    onResult: async (projectId, result) => {
      const answer = harness.answer(result);
      if (answer.ok) harness.results.push({ projectId, result });
      return answer;
    },
    onOutput: (_projectId, output) => void harness.outputs.push(output),
  };
  const attach = (): RunnerGateway =>
    createRunnerGateway({ server, authenticate: tokenAuthenticator({ runnerTokens: tokens }), logger, sink });
  harness.current = attach();
  return harness;
}
