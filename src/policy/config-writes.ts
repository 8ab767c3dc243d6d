// Writes of a tool's own user config (global-installs.ts): `npm config set`, `npm login`, `pip
// config set`, `poetry config k v`, `bundle config set k v` write files in the home folder, outside
// the project, whatever the key; the path scope counts them as outside the root. Subcommands that do
// so whatever their words (`gh auth login`, `docker login`) are rows of HOME_WRITERS instead.
import * as T from './global-install-tables.ts';
import { globalFlag, locationAt, optionWords, valueOf } from './install-options.ts';

export type Env = ReadonlyMap<string, string>; // lower-cased name -> the assignment word

const PIP_CONFIG_WRITERS = new Set(['set', 'unset', 'edit']);
/** npm's config actions that write a config file (`rm` and `del` are `delete`). */
const NPM_CONFIG_WRITERS = new Set(['set', 'delete', 'rm', 'del', 'edit', 'fix']);
/** They keep (or drop) the registry's token in the user's .npmrc. */
const NPM_LOGINS = new Set(['login', 'adduser', 'logout']);

/**
 * `npm config set k v` (and `npm set`, `config delete`, `edit`, `fix`) and `npm login` write the
 * user's ~/.npmrc (pnpm's: its global rc), or the global npmrc when told -g: outside the project
 * whatever the key. Told `--location=project` they write the project's .npmrc, which sends later
 * installs outside only through a key such as `prefix` (any word naming one counts: a value
 * option's word may stand between them).
 */
export function npmConfigWrite(
  verb: string,
  names: readonly string[],
  words: readonly string[],
  rest: readonly string[],
  env: Env,
): string | null {
  // The action is the first writer's word after `config`: an option's value may stand between (`npm config --location user set`).
  const action = names.includes('config')
    ? // Stryker disable next-line MethodExpression: words[0] is the command word (config, c), no writer
      words.slice(1).find((w) => NPM_CONFIG_WRITERS.has(w))
    : names.includes('set')
      ? 'set'
      : undefined;
  const login = names.find((n) => NPM_LOGINS.has(n));
  // Stryker disable next-line StringLiteral: no other text is a writer either
  if (login === undefined && !NPM_CONFIG_WRITERS.has(action ?? '')) return null;
  const keys = words.slice(action === undefined ? 1 : words.indexOf(action) + 1).map((w) => w.split('=')[0]!);
  const found = login ?? `config ${action}${keys[0] === undefined ? '' : ` ${keys[0]}`}`;
  if (!inProjectConfig(rest, env)) return `${verb} ${found}`;
  if (login !== undefined) return null; // the token goes into the project's .npmrc
  const key = keys.find((k) => T.NPM_GLOBAL_KEYS.has(k));
  return key === undefined ? null : `${verb} config ${action} ${key}`;
}

/** npm told to use the project's .npmrc (`--location=project`, npm_config_location=project) and not -g. */
function inProjectConfig(rest: readonly string[], env: Env): boolean {
  if (globalFlag(rest) !== null) return false;
  const opts = optionWords(rest);
  let location = env.has('npm_config_location') ? valueOf(env.get('npm_config_location')!) : undefined;
  for (let i = 0; i < opts.length; i++) location = locationAt(opts, i) ?? location;
  return location === 'project';
}

/**
 * `pip config set|unset|edit` (args: the words after `config`) writes the user's pip.conf, or the
 * system's or the environment's: outside the project whatever the key.
 */
export function pipConfigWrite(verb: string, args: readonly string[]): string | null {
  const words = args.filter((w) => !w.startsWith('-'));
  const at = words.findIndex((w) => PIP_CONFIG_WRITERS.has(w)); // past `--editor vi`'s value too
  if (at === -1) return null;
  const [action, key] = words.slice(at);
  // `edit` takes no key (`pip config edit --editor vi`: vi is the editor).
  return `${verb} config ${action}${key === undefined || action === 'edit' ? '' : ` ${key.split('=')[0]}`}`;
}

/**
 * `poetry config k v` and `bundle config [set] k v` (or a removal) write the user's config, unless
 * told `--local` (./poetry.toml, ./.bundle/config); so do `--unset`, `--delete` and poetry's `--migrate`.
 * One key alone, `get` and `list` only read.
 */
export function userConfigWrite(name: string, words: readonly string[], rest: readonly string[]): string | null {
  const opts = optionWords(rest); // `-- --local` is a value, not the option
  if (words[0] !== 'config' || opts.includes('--local')) return null;
  // After `--` a word with a dash is a value too (`poetry config pypi-token.pypi -- --local`).
  const dashed = rest.slice(opts.length + 1).filter((w) => w.startsWith('-'));
  const [first, ...after] = [...words.slice(1), ...dashed];
  if (name === 'bundle' && (first === 'get' || first === 'list')) return null;
  const bundleVerb = name === 'bundle' && (first === 'set' || first === 'unset');
  const changes =
    ['--unset', '--delete', '--migrate'].some((o) => opts.includes(o)) || (bundleVerb && first === 'unset');
  const keyAndValue = (bundleVerb ? after : [first, ...after]).length >= 2; // with no first word there is no after
  return changes || keyAndValue ? `${name} config` : null;
}
