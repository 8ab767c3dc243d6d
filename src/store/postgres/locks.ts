// Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)); the second key is a
// hash that includes current_schema(), so stores in different schemas of one database never
// serialize on each other.
export const LOCK_CLASS = {
  /** Held while migrations run: several nodes may start at once, one migrates. */
  migrations: 0x6272_0001,
  /** Held from a project's first event append until commit: ids in commit order (events.ts). */
  eventCursor: 0x6272_0002,
  /** Held from a merge-key check until commit: concurrent proposals of one PR serialize (actions.ts). */
  mergeKey: 0x6272_0003,
  /** Held from reading every project's root until commit: creations with overlapping roots serialize (projects.ts). */
  projectRoots: 0x6272_00a8,
  /** Held by an admin bootstrap or an admin revocation until commit: the last live admin is never revoked (auth/credentials.ts). */
  adminCredentials: 0x6272_00a9,
} as const;
