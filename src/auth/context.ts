// The credential a piece of work runs for, carried through async calls (AsyncLocalStorage), so the
// store can stamp every event with it without each use case passing it along.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CredentialStamp } from './principal.ts';

export interface CredentialContext extends CredentialStamp {
  actingUserId: string | null;
}

export const credentialContext = new AsyncLocalStorage<CredentialContext>();

/** Runs `work` (and everything it starts, timers included) as `stamp`: its events record that credential. */
export const actingAs = <T>(stamp: CredentialStamp, work: () => T): T =>
  credentialContext.run({ ...stamp, actingUserId: null }, work);
