// Package managers and toolchains told to install outside the project (an attacker's finding,
// issue 9 A.3 in spirit): `npm i -g x`, `pnpm add -g x`, `bun add -g x`, `yarn global add x`,
// `pip install --user x`, `python3 -m pip install --user x`, `uv pip install --system x` write
// into the user's or the system's folders, whatever the command's own words say; `cargo install`,
// `go install`, `gem install`, `brew install`, `rustup toolchain install`, `uv tool install` and
// their kin do so by default (the tables are in global-install-tables.ts). So do the same told by
// the environment (`npm_config_global=true npm i x`, `PIP_USER=1 pip install x`) and config
// writes that make every later install global (`npm config set prefix /x`). The path scope counts
// them as outside the root (scope.ts judges every reading through the wrappers: `env npm i -g x`).
import { CLI_GLOBAL_OPTIONS, subcommandStarts } from './cli-options.ts';
import * as T from './global-install-tables.ts';
import { optionTable } from './options.ts';
import { npmCommand } from './subcommand-aliases.ts';
import { globalFlag, npmTrue, option, optionWords, pipTrue, plainRelative, valueOf } from './install-options.ts';
import { isAssignment } from './tokenizer.ts';
import { basename, runsWordsAfterOptions, unwrap } from './wrappers.ts';

const NPM_WRITERS = new Set(
  'install uninstall update link ci rebuild dedupe prune install-test install-ci-test'.split(' '),
);
const PIP_WRITERS = new Set(['install', 'uninstall']); // `pip list --user` only reads
const NO_OPTIONS = optionTable('', '');
type Env = ReadonlyMap<string, string>; // lower-cased name -> the assignment word

/** The environment variables (lowercased) the rules below read: they make an install global. */
export const INSTALL_ENVIRONMENT: ReadonlySet<string> = new Set([
  ...['npm_config_global', 'npm_config_location'],
  ...['pip_user', 'pip_break_system_packages', 'pip_target', 'pip_prefix', 'pip_root'],
  ...['uv_system_python', 'uv_break_system_packages'],
]);

/** The assignments before the verb (`npm_config_global=true npm i x`); npm reads the names in any case. */
function environment(argv: readonly string[], verbAt: number): Env {
  const env = new Map<string, string>();
  for (const w of argv.slice(0, verbAt)) if (isAssignment(w)) env.set(w.split('=')[0]!.toLowerCase(), w);
  return env;
}

/** The word that sends the install outside the project, or null. */
export function globalInstall(argv: readonly string[], verbAt: number): string | null {
  const found = installer(argv, verbAt);
  if (found !== null) return found;
  let assigns = false;
  for (let i = verbAt + 1; i < argv.length && !assigns; i++) assigns = isAssignment(argv[i]!);
  if (!assigns) return null;
  const tail = argv.slice(verbAt);
  if (!runsWordsAfterOptions(tail)) return null;
  // `env npm_config_global=true npm i x`: the reading behind the wrapper has lost the
  // assignments, so the command behind it is judged here, in the same argv.
  for (const view of unwrap(tail).views) {
    const at = argv.length - view.length;
    if (at <= verbAt || basename(argv[at]!) !== basename(view[0]!)) continue;
    const inner = installer(argv, at);
    if (inner !== null) return inner;
  }
  return null;
}

/** The names some rule below reads; any other verb installs nothing (checked before any scan of argv). */
const INSTALLER_NAMES: ReadonlySet<string> = new Set([
  ...['npm', 'pnpm', 'yarn', 'nix-env', 'uv', 'go'],
  ...T.CONDA_LIKE,
  ...T.ALWAYS,
  ...T.HOME_WRITERS.keys(),
  ...T.GLOBAL_FLAGGED.keys(),
]);
const PYTHON = /^(python|pypy)[0-9.]*t?$/;
const PIP = /^pip[0-9.]*$/;
const EDITORS = /^(code|code-insiders|codium|cursor|windsurf|code-server|code-oss)$/;

/** The installer rules on this reading alone (no look behind a wrapper's assignments). */
export function installer(argv: readonly string[], verbAt: number): string | null {
  const verb = argv[verbAt];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (!INSTALLER_NAMES.has(name) && !PYTHON.test(name) && !PIP.test(name) && !EDITORS.test(name)) return null;
  const rest = argv.slice(verbAt + 1);
  const env = environment(argv, verbAt);
  if (name === 'npm' || name === 'pnpm') return npmGlobal(verb, name, rest, env);
  if (name === 'yarn') return rest[0] === 'global' ? 'yarn global' : null;
  if (PYTHON.test(name)) return pythonModule(verb, rest, env);
  if (PIP.test(name))
    return starts('pip', rest).some((s) => PIP_WRITERS.has(rest[s]!))
      ? pip(verb, rest, env, false)
      : pipConfigKey(verb, rest);
  if (EDITORS.test(name)) {
    const flag = option(rest, ['--install-extension', '--uninstall-extension']);
    return flag === undefined ? null : `${name} ${flag.word.split('=')[0]}`;
  }
  if (T.CONDA_LIKE.has(name)) return conda(name, rest);
  if (name === 'nix-env') {
    const op = optionWords(rest).find((w) => /^-[ieuG]|^--(install|upgrade|uninstall|set|rollback|switch-)/.test(w));
    return op === undefined ? null : `nix-env ${op}`;
  }
  if (T.ALWAYS.has(name)) return rest.some((w) => !w.startsWith('-')) ? destined(name, name, rest) : null;
  for (const s of starts(name, rest)) {
    const words = rest.slice(s).filter((w) => !w.startsWith('-'));
    if (name === 'uv' && words[0] === 'pip' && PIP_WRITERS.has(words[1] ?? '')) return pip(verb, rest, env, true);
    // `uv run x …` runs x: its words are x's (`uv run tsc --target es2020`), judged as x's own install.
    if (name === 'uv' && words[0] === 'run') {
      const run = rest.slice(s + 1);
      for (const r of starts('uv run', run)) {
        const inner = installer(run, r);
        if (inner !== null) return inner;
      }
      return null;
    }
    if (name === 'go' && words[0] === 'env' && rest.some((w) => /^-[wu]$/.test(w))) return 'go env -w'; // go's user env file
    const home = subcommand(name, words, T.HOME_WRITERS);
    if (home !== null) return destined(name, `${name} ${home}`, rest);
    const found = flagged(name, words, rest);
    if (found !== null) return found;
  }
  return null;
}

/** Where a CLI's subcommand may start (indices into rest), past its global options (`cargo -Z x install`). */
function starts(name: string, rest: readonly string[]): number[] {
  const words = rest.map((w) => (w.startsWith('+') ? '-+' : w)); // `cargo +nightly install`: a toolchain, no subcommand
  return subcommandStarts([name, ...words], CLI_GLOBAL_OPTIONS.get(name) ?? NO_OPTIONS).map((i) => i - 1);
}

/** The listed subcommand (up to three words) that `words` starts with, or null. */
function subcommand(
  name: string,
  words: readonly string[],
  table: ReadonlyMap<string, ReadonlySet<string>>,
): string | null {
  const subs = table.get(name);
  if (subs === undefined) return null;
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const key = words.slice(0, n).join('_');
    const next = words[n];
    if (!subs.has(key) && !(subs.has(`${key}+`) && next !== undefined)) continue;
    const sub = words.slice(0, n).join(' ');
    return next !== undefined && T.READS_AFTER.get(`${name} ${sub}`)?.has(next) === true ? null : sub;
  }
  return null;
}

/** `found`, unless a destination option names a plain relative folder (`cargo install --root ./tools`). */
function destined(name: string, found: string, rest: readonly string[]): string | null {
  const dest = option(optionWords(rest), T.DESTINATIONS.get(name) ?? []);
  if (dest === undefined) return found;
  return plainRelative(dest.value) ? null : `${found} ${dest.word}`;
}

/** bun, deno and dotnet: outside when told `-g` (or a destination outside). */
function flagged(name: string, words: readonly string[], rest: readonly string[]): string | null {
  const sub = subcommand(name, words, T.GLOBAL_FLAGGED);
  if (sub === null) return null;
  const dest = option(optionWords(rest), T.DESTINATIONS.get(name) ?? []);
  if (dest !== undefined) return plainRelative(dest.value) ? null : `${name} ${sub} ${dest.word}`;
  const flag = globalFlag(rest);
  if (flag !== null) return `${name} ${sub} ${flag}`;
  // `bun link` with nothing to link registers this package globally.
  return name === 'bun' && sub === 'link' && words.length === 1 ? 'bun link' : null;
}

function npmGlobal(verb: string, name: string, rest: readonly string[], env: Env): string | null {
  for (const s of starts(name, rest)) {
    const words = rest.slice(s).filter((w) => !w.startsWith('-'));
    if (words[0] === undefined) continue;
    const home = subcommand(name, words, T.HOME_WRITERS);
    if (home !== null) return `${name} ${home}`;
    // pnpm's writers and their aliases (add, i, rm, un, up, ln...) are spelled as npm's.
    const names = npmCommand(words[0]!).names;
    const set =
      names.includes('config') && words[1] === 'set' ? words.slice(2) : names.includes('set') ? words.slice(1) : null;
    const key = set === null ? null : npmConfigKey(set);
    if (key !== null) return `${verb} config set ${key}`;
    if (!names.some((n) => NPM_WRITERS.has(n))) continue;
    const location = env.get('npm_config_location');
    const told = env.get('npm_config_global');
    const flag =
      globalFlag(rest) ??
      (told !== undefined && npmTrue(valueOf(told)) ? told : null) ??
      (location !== undefined && /^(global|user)$/.test(valueOf(location)) ? location : null);
    if (flag !== null) return `${verb} ${flag}`;
    // `npm link` in a package folder links it into the global folder first (npm's folder form
    // too); `pnpm link <dir>` links the folder into this project.
    if (!names.includes('link')) continue;
    const target = words[1];
    if (target === undefined || (name === 'npm' && (target.startsWith('.') || target.includes('/'))))
      return `${verb} link`;
  }
  return null;
}

/** The key of `npm config set k v` / `k=v` that makes later installs global, or null. */
function npmConfigKey(pairs: readonly string[]): string | null {
  for (let i = 0; i < pairs.length; i++) {
    const [key, value] = pairs[i]!.includes('=')
      ? [pairs[i]!.split('=')[0]!, valueOf(pairs[i]!)]
      : [pairs[i]!, pairs[++i] ?? ''];
    if (!T.NPM_GLOBAL_KEYS.has(key)) continue;
    if (key === 'global' ? npmTrue(value) : key === 'location' ? /^(global|user)$/.test(value) : true) return key;
  }
  return null;
}

/** pip's (or uv pip's) word that installs outside: an option, an abbreviation of one, or the environment. */
function pip(verb: string, rest: readonly string[], env: Env, uv: boolean): string | null {
  const opts = optionWords(rest);
  const flag = option(opts, T.PIP_OUTSIDE, true);
  if (flag !== undefined) return `${verb} ${flag.word}`;
  // A relative target is the path scope's to judge; an interpreter is outside unless it is a path in here.
  const dest = option(opts, T.DESTINATIONS.get('pip')!, true);
  if (dest !== undefined && !plainRelative(dest.value)) return `${verb} ${dest.word}`;
  const python = option(opts, uv ? ['-p', '--python'] : ['--python'], true);
  if (python !== undefined && !(plainRelative(python.value) && /^\.|\//.test(python.value!)))
    return `${verb} ${python.word}`;
  const names = uv ? ['uv_system_python', 'uv_break_system_packages'] : ['pip_user', 'pip_break_system_packages'];
  for (const n of names) if (env.has(n) && pipTrue(valueOf(env.get(n)!))) return `${verb} ${env.get(n)}`;
  for (const n of uv ? [] : ['pip_target', 'pip_prefix', 'pip_root'])
    if (env.has(n) && !plainRelative(valueOf(env.get(n)!))) return `${verb} ${env.get(n)}`;
  return null;
}

/** `pip config set global.user true`, `pip config set install.target /x`: every later install goes there. */
function pipConfigKey(verb: string, rest: readonly string[]): string | null {
  const words = rest.filter((w) => !w.startsWith('-'));
  const at = words.indexOf('config');
  if (at === -1 || words[at + 1] !== 'set' || words[at + 2] === undefined) return null;
  const key = words[at + 2]!.split('=')[0]!;
  return T.PIP_CONFIG_KEYS.has(key.slice(key.indexOf('.') + 1)) ? `${verb} config set ${key}` : null;
}

/** `python3 -Im pip install --user x` is pip; the first word that is no option is a script (its words are its own). */
function pythonModule(verb: string, rest: readonly string[], env: Env): string | null {
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === '--' || !w.startsWith('-') || w === '-') return null;
    if (w.startsWith('--')) {
      if (w === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let k = 1; k < w.length; k++) {
      if (w[k] === 'c') return null;
      if (!'mWX'.includes(w[k]!)) continue;
      const attached = k < w.length - 1;
      const next = attached ? i + 1 : i + 2;
      if (w[k] === 'm') return pipModule(verb, attached ? w.slice(k + 1) : rest[i + 1], rest.slice(next), env);
      i = next - 1;
      break;
    }
  }
  return null;
}

function pipModule(verb: string, module: string | undefined, args: readonly string[], env: Env): string | null {
  const m = /^(pip[0-9.]*|ensurepip)(\.__main__)?$/.exec(module ?? '');
  if (m === null) return null;
  if (m[1] === 'ensurepip') {
    const flag = option(args, ['--user', '--root'], true);
    return flag === undefined ? null : `${verb} -m ${module} ${flag.word}`;
  }
  const found = installer([...env.values(), 'pip', ...args], env.size);
  return found === null ? null : `${verb} -m ${module} ${found.slice('pip '.length)}`;
}

/** conda's writers go into a named or the base environment unless told a folder (`-p ./env`). */
function conda(name: string, rest: readonly string[]): string | null {
  for (const s of starts(name, rest)) {
    const [sub, second] = rest.slice(s).filter((w) => !w.startsWith('-'));
    const writes =
      sub === 'env'
        ? T.CONDA_ENV_WRITERS.has(second ?? '')
        : sub === 'config'
          ? option(rest, T.CONDA_CONFIG_WRITES) !== undefined
          : T.CONDA_WRITERS.has(sub ?? '');
    if (writes) return destined('conda', `${name} ${sub}`, rest);
  }
  return null;
}
