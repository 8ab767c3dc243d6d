// The admin credentials at start-up. Admin is a stored credential kind like the others (hash only,
// revocable, optional expiry, last use); this decides how the first one comes to exist:
//   - BRABO_ADMIN_TOKEN is registered as an admin credential (by its hash, once, on any node), so
//     it is listed, shows its last use and can be revoked; a revoked one stays refused.
//   - Else, when no admin credential is usable, one is generated: its hash is stored and its secret
//     written once to <data-dir>/admin-token (0600), the operator's copy. The server never reads
//     that file again, so deleting it breaks nothing.
//   - A data dir from before admin credentials were stored (an admin-token file, no admin row):
//     the file's token is registered, so the operator's token keeps working.
// Nodes sharing a Postgres store serialize on the store's admin lock: one of them bootstraps.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { CredentialRecord, Repositories, Store } from '../store/types.ts';
import { hashSecret, newSecret } from './principal.ts';

export const ADMIN_TOKEN_FILE = 'admin-token';

/** Name (credential subject) of the row BRABO_ADMIN_TOKEN is registered as. */
export const ENV_ADMIN_NAME = 'BRABO_ADMIN_TOKEN';

/** A file token shorter than this is not a token this gateway ever wrote: it is replaced, not registered. */
const MIN_FILE_TOKEN_LENGTH = 16;

export interface AdminBootstrap {
  /**
   * env: BRABO_ADMIN_TOKEN (registered); generated: a new admin credential, secret written to
   * `path`; imported: an older data dir's admin-token file registered; stored: usable admin
   * credentials were in the store already.
   */
  source: 'env' | 'generated' | 'imported' | 'stored';
  /** The operator's copy of a generated or imported token; null otherwise. */
  path: string | null;
  /** The credential BRABO_ADMIN_TOKEN, the generated or the imported token is (null for `stored`). */
  credentialId: string | null;
  /** Usable (live, unexpired) admin credentials after start-up. */
  usable: number;
}

/** BRABO_ADMIN_TOKEN is the secret of a credential of another kind: refused at start. */
export class AdminTokenKindError extends Error {
  override name = 'AdminTokenKindError';
  readonly code = 'admin_token_not_admin';
}

export interface AdminBootstrapOptions {
  store: Pick<Store, 'read' | 'transaction'>;
  dataDir: string;
  fromEnv: string | null;
  logger: Logger;
  now?: () => number;
}

const usableAt = (now: number) => (c: CredentialRecord) =>
  c.revokedAt === null && (c.expiresAt === null || Date.parse(c.expiresAt) > now);

const adminsOf = (tx: Pick<Repositories, 'credentials'>) =>
  tx.credentials.list({ kind: 'admin', includeRevoked: true, limit: 10_000 });

export async function bootstrapAdmin(options: AdminBootstrapOptions): Promise<AdminBootstrap> {
  const { store, dataDir, fromEnv, logger } = options;
  const now = options.now ?? Date.now;
  const at = () => new Date(now()).toISOString();
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  let envCredential: string | null = null;
  if (fromEnv !== null) envCredential = await registerEnvToken(store, fromEnv, at(), now(), logger);

  return store.transaction(async (tx) => {
    await tx.credentials.lockAdminCredentials();
    const admins = await adminsOf(tx);
    const usable = admins.filter(usableAt(now())).length;
    if (usable > 0)
      return {
        source: envCredential !== null ? 'env' : 'stored',
        path: null,
        credentialId: envCredential,
        usable,
      } satisfies AdminBootstrap;

    const legacy = admins.length === 0 ? await readLegacyFile(path) : null;
    const secret = legacy ?? newSecret('admin');
    const record: CredentialRecord = {
      id: randomUUID(),
      kind: 'admin',
      projectId: null,
      subject: legacy ? 'admin-token file' : 'bootstrap',
      label: legacy
        ? `registered from ${path} (written before admin credentials were stored)`
        : `generated at start-up; secret written once to ${path}`,
      createdBy: 'system:bootstrap',
      createdAt: at(),
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    };
    if (!(await tx.credentials.insertIfAbsent({ ...record, tokenHash: hashSecret(secret) })))
      throw new Error('the bootstrap admin credential collided with a stored one; start again');
    // Written before the commit: if the commit fails, the next start finds no usable admin and
    // writes a new one over it; if the write fails, nothing is stored that nobody holds.
    if (!legacy) await writeOperatorCopy(dataDir, path, secret);
    logger.warn(
      {
        code: legacy ? 'admin_token_file_registered' : 'admin_credential_bootstrapped',
        credentialId: record.id,
        path,
        earlierAdmins: admins.length,
      },
      legacy
        ? 'the admin-token file of an older data dir was registered as an admin credential (hash only); the file is no longer read'
        : admins.length === 0
          ? 'no admin credential yet: one was generated, its secret written once to the file (the store keeps its hash only)'
          : 'every admin credential is revoked or expired: a new one was generated and its secret written to the file',
    );
    return {
      source: legacy ? 'imported' : 'generated',
      path,
      credentialId: record.id,
      usable: 1,
    } satisfies AdminBootstrap;
  });
}

const kindError = (record: { kind: string; id: string }) =>
  new AdminTokenKindError(
    `BRABO_ADMIN_TOKEN is the secret of a ${record.kind} credential (${record.id}), not an admin token; set it to an admin token, or unset it`,
  );

/** Registers BRABO_ADMIN_TOKEN by its hash (once, whichever node is first); returns its credential id. */
async function registerEnvToken(
  store: AdminBootstrapOptions['store'],
  secret: string,
  createdAt: string,
  now: number,
  logger: Logger,
): Promise<string> {
  const tokenHash = hashSecret(secret);
  // Checked before registering too: runner tokens live in their own table, so the insert below
  // would not collide with one, and the lookup would then find the admin row first.
  const existing = await store.read.credentials.findByHash(tokenHash);
  if (existing && existing.kind !== 'admin') throw kindError(existing);
  await store.transaction((tx) =>
    tx.credentials.insertIfAbsent({
      id: randomUUID(),
      kind: 'admin',
      projectId: null,
      subject: ENV_ADMIN_NAME,
      label: 'registered from the environment at start-up',
      createdBy: 'system:bootstrap',
      createdAt,
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
      tokenHash,
    }),
  );
  const record = await store.read.credentials.findByHash(tokenHash);
  if (!record) throw new Error('BRABO_ADMIN_TOKEN was registered but cannot be read back from the store');
  if (record.kind !== 'admin') throw kindError(record);
  if (!usableAt(now)(record))
    logger.warn(
      { code: record.revokedAt ? 'admin_env_token_revoked' : 'admin_env_token_expired', credentialId: record.id },
      'BRABO_ADMIN_TOKEN is a revoked or expired admin credential: it is refused; set it to a live admin token or unset it',
    );
  return record.id;
}

async function readLegacyFile(path: string): Promise<string | null> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const token = text?.trim() ?? '';
  return token.length >= MIN_FILE_TOKEN_LENGTH ? token : null;
}

/** The operator's copy, mode 0600, replaced in one rename (never a half-written token). */
async function writeOperatorCopy(dataDir: string, path: string, secret: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await unlink(temporary).catch(() => {});
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${secret}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
