// Runner tokens: the parts both adapters share. A token is 32 random bytes, base64url; only its
// sha256 is stored, and a lookup goes by that digest, so no comparison ever touches the secret.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Store } from './types.ts';

export const hashRunnerToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export interface MintedRunnerToken {
  tokenId: string;
  /** The secret, handed to the caller once and never stored. */
  token: string;
  tokenHash: string;
  createdAt: string;
}

export function mintRunnerToken(): MintedRunnerToken {
  const token = randomBytes(32).toString('base64url');
  return { tokenId: randomUUID(), token, tokenHash: hashRunnerToken(token), createdAt: new Date().toISOString() };
}

/** Anything else cannot be a token we minted: verified as unknown without a query. */
export const isRunnerTokenShaped = (token: unknown): token is string =>
  typeof token === 'string' && token.length > 0 && token.length <= 200;

/** The store-level view: create and revoke in their own transaction, verify on committed data. */
export function runnerTokensOf(store: Pick<Store, 'read' | 'transaction'>): Store['runnerTokens'] {
  return {
    create: (projectId) => store.transaction((tx) => tx.runnerTokens.create(projectId)),
    revoke: (tokenId) => store.transaction((tx) => tx.runnerTokens.revoke(tokenId)),
    verify: (token) => store.read.runnerTokens.verify(token),
    projectOf: (tokenId) => store.read.runnerTokens.projectOf(tokenId),
  };
}
