// Every variable brabo reads starts with BRABO_. A few had other names before; those still
// work, and each one in use gives one deprecation warning naming its replacement.
// (DOCKER_HOST is Docker's own variable, shared with the docker CLI, so it keeps its name.)

/** New name -> old name. */
export const RENAMED_VARIABLES: Readonly<Record<string, string>> = {
  BRABO_HOST: 'HOST',
  BRABO_PORT: 'PORT',
  BRABO_LOG_LEVEL: 'LOG_LEVEL',
  BRABO_DATABASE_URL: 'DATABASE_URL',
  BRABO_PROJECT_WORKSPACES_ROOT: 'PROJECT_WORKSPACES_ROOT',
};

export interface EnvValue {
  /** Unset or empty -> undefined. */
  value: string | undefined;
  /** The variable the value came from, for messages ("BRABO_PORT=… is not …" or "PORT=…"). */
  name: string;
}

/** The value of `name`, or of its old name when only that one is set. */
export function readVariable(env: NodeJS.ProcessEnv, name: string): EnvValue {
  const value = env[name];
  if (value !== undefined && value !== '') return { value, name };
  const old = RENAMED_VARIABLES[name];
  const oldValue = old === undefined ? undefined : env[old];
  if (old !== undefined && oldValue !== undefined && oldValue !== '') return { value: oldValue, name: old };
  return { value: undefined, name };
}

/** One sentence per old name in use: what to rename it to, and which wins when both are set. */
export function deprecationWarnings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  for (const [name, old] of Object.entries(RENAMED_VARIABLES)) {
    const oldValue = env[old];
    if (oldValue === undefined || oldValue === '') continue;
    const both = env[name] !== undefined && env[name] !== '';
    warnings.push(
      both
        ? `${old} is deprecated and ignored because ${name} is also set; unset ${old}`
        : `${old} is deprecated; rename it to ${name} (the old name still works for now)`,
    );
  }
  return warnings;
}
