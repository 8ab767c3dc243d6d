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
import { type Env, npmConfigWrite, pipConfigWrite, userConfigWrite } from './config-writes.ts';
import { isAssignment } from './tokenizer.ts';
import { WRAPPERS } from './wrapper-table.ts';
import { basename, runsWordsAfterOptions, unwrap } from './wrappers.ts';

const NPM_WRITERS = new Set(
  'install uninstall update link ci rebuild dedupe prune install-test install-ci-test'.split(' '),
);
const PIP_WRITERS = new Set(['install', 'uninstall']); // `pip list --user` only reads
// Stryker disable next-line StringLiteral: a table of no options; no option word is spelled as a mutant's text
const NO_OPTIONS = optionTable('', '');
const NO_NAMES: readonly string[] = [];

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

const UV_RUN_OPTIONS = WRAPPERS.get('uv run')!.options;
/** Modules whose command has another name (awscli v1 runs as `python -m awscli`). */
const MODULE_COMMANDS: ReadonlyMap<string, string> = new Map([['awscli', 'aws']]);
/** `uv run x` and `python -m x` hand their words to x's rules; a longer chain is judged outside unread. */
const MAX_HANDOFFS = 8;
/** Where a CLI's subcommand may start, past options it does not know; more is judged outside unread. */
const MAX_STARTS = 16;

/** The names some rule below reads; any other verb installs nothing (checked before any scan of argv). */
const INSTALLER_NAMES: ReadonlySet<string> = new Set([
  ...['npm', 'nix-env', 'bundle'], // pnpm, yarn, uv, go and poetry are keys of HOME_WRITERS
  ...T.CONDA_LIKE,
  ...T.ALWAYS,
  ...T.HOME_WRITERS.keys(),
  ...T.GLOBAL_FLAGGED.keys(),
]);
const PYTHON = /^(i?python|pypy)[0-9.]*t?$/; // `ipython -m pip` runs pip too
const PIP = /^pip[0-9.]*$/;
/** nix-env's operations that change a profile: -i/-u/-e/-S/-G (alone or in a cluster) and their long names. */
const NIX_ENV_WRITES =
  /^-[ieuSG]|^--(install|upgrade|uninstall|set|set-flag|rollback|switch-profile|switch-generation|delete-generations)(=|$)/;
const EDITORS = /^(code|code-insiders|codium|cursor|windsurf|code-server|code-oss)$/;

/** The installer rules on this reading alone (no look behind a wrapper's assignments). */
export function installer(argv: readonly string[], verbAt: number, handoffs = 0): string | null {
  const verb = argv[verbAt];
  if (verb === undefined) return null;
  const name = basename(verb);
  // Each hand-off reads the rest of argv again: a crafted `uv run uv run …` cost O(n²), 0.4 s.
  if (handoffs > MAX_HANDOFFS) return `${name} (handed on more than ${MAX_HANDOFFS} times)`;
  if (!INSTALLER_NAMES.has(name) && !PYTHON.test(name) && !PIP.test(name) && !EDITORS.test(name)) return null;
  const rest = argv.slice(verbAt + 1);
  const env = environment(argv, verbAt);
  // Each unknown option may take the next word: each is one more start, and each start a scan.
  const subs = PYTHON.test(name) ? [] : starts(name, rest);
  if (subs.length > MAX_STARTS) return `${name} (more than ${MAX_STARTS} readings of its options)`;
  if (name === 'npm' || name === 'pnpm') return npmGlobal(verb, name, rest, env, subs);

  if (PYTHON.test(name)) return pythonModule(verb, rest, env, handoffs);
  if (PIP.test(name)) {
    const subs = starts('pip', rest);
    if (subs.some((s) => PIP_WRITERS.has(rest[s]!))) return pip(verb, rest, env, false);
    const config = subs.find((s) => rest[s] === 'config');
    return config === undefined ? null : pipConfigWrite(verb, rest.slice(config + 1));
  }
  if (EDITORS.test(name)) {
    const flag = option(rest, ['--install-extension', '--uninstall-extension']);
    return flag === undefined ? null : `${name} ${flag.word.split('=')[0]}`;
  }
  if (T.CONDA_LIKE.has(name)) return conda(name, rest, subs);
  if (name === 'nix-env') {
    const op = optionWords(rest).find((w) => NIX_ENV_WRITES.test(w));
    return op === undefined ? null : `nix-env ${op}`;
  }
  if (T.ALWAYS.has(name)) return rest.some((w) => !w.startsWith('-')) ? destined(name, name, rest) : null;
  for (const s of commandStarts(name, rest, subs)) {
    const raw = rest.slice(s);
    const words = raw.filter((w) => !w.startsWith('-'));
    if (name === 'uv' && words[0] === 'pip' && PIP_WRITERS.has(words[1]!)) return pip(verb, rest, env, true);
    // `uv run x …` runs x: its words are x's (`uv run tsc --target es2020`), judged as x's own install.
    if (name === 'uv' && words[0] === 'run') {
      const run = rest.slice(s + 1);
      const runStarts = starts('uv run', run, UV_RUN_OPTIONS);
      if (runStarts.length > MAX_STARTS) return `uv run (more than ${MAX_STARTS} readings of its options)`;
      for (const r of runStarts) {
        const inner = installer(run, r, handoffs + 1);
        if (inner !== null) return inner;
      }
      return null;
    }
    // go's user env file; go's flags take one dash or two, and a Boolean `=value`.
    const goEnv = name === 'go' && words[0] === 'env' ? rest.find((w) => /^--?[wu](=|$)/.test(w)) : undefined;
    if (goEnv !== undefined) return `go env ${goEnv}`;
    const config = name === 'poetry' || name === 'bundle' ? userConfigWrite(name, words, rest) : null;
    if (config !== null) return config;
    const home = subcommand(name, raw, T.HOME_WRITERS);
    if (home !== null) return destined(name, `${name} ${home}`, rest);
    const found = flagged(name, raw, rest);
    if (found !== null) return found;
  }
  return null;
}

/** Where a CLI's subcommand may start (indices into rest), past its global options (`cargo -Z x install`). */
function starts(name: string, rest: readonly string[], options = CLI_GLOBAL_OPTIONS.get(name) ?? NO_OPTIONS): number[] {
  const words = rest.map((w) => (w.startsWith('+') ? '-+' : w)); // `cargo +nightly install`: a toolchain, no subcommand
  return subcommandStarts([name, ...words], options).map((i) => i - 1);
}

/** The starts, and for gcloud the starts after a release track too (`gcloud beta --project p auth login`). */
function commandStarts(name: string, rest: readonly string[], subs: readonly number[]): readonly number[] {
  if (name !== 'gcloud') return subs;
  const found = [...subs];
  for (const s of subs)
    if (/^(alpha|beta|preview)$/.test(rest[s]!)) for (const t of starts(name, rest.slice(s + 1))) found.push(s + 1 + t);
  return found;
}

/**
 * The listed subcommand (up to three words) that `raw` (the words from a start) names, or null. Its
 * first word is the first that is no option; the others may stand after values of options no table
 * here knows (`gh config --host h set`), so any later word counts. A read word (`brew services
 * list`) counts only right after it: in `aws configure --profile list set` it is a profile's name.
 */
function subcommand(
  name: string,
  raw: readonly string[],
  table: ReadonlyMap<string, ReadonlySet<string>>,
): string | null {
  const subs = table.get(name);
  if (subs === undefined) return null;
  const at: number[] = [];
  for (let i = 0; i < raw.length; i++) if (!raw[i]!.startsWith('-')) at.push(i);
  let best: KeyWords | null = null;
  let end = -1;
  for (const key of keyWords(subs)) {
    if (key.words[0] !== raw[at[0]!] || (best !== null && key.words.length <= best.words.length)) continue;
    let j = 0;
    for (let w = 1; w < key.words.length && j < at.length; w++) {
      j++;
      while (j < at.length && raw[at[j]!] !== key.words[w]) j++;
    }
    if (j >= at.length || (key.more && j + 1 >= at.length)) continue;
    best = key;
    end = at[j]!;
  }
  if (best === null) return null;
  const sub = best.words.join(' ');
  return T.READS_AFTER.get(`${name} ${sub}`)?.has(raw[end + 1]!) === true ? null : sub;
}

interface KeyWords {
  words: readonly string[];
  /** A trailing `+`: one more word must follow (`rustup default` alone only prints). */
  more: boolean;
}
const KEY_WORDS = new WeakMap<ReadonlySet<string>, readonly KeyWords[]>();
function keyWords(subs: ReadonlySet<string>): readonly KeyWords[] {
  let keys = KEY_WORDS.get(subs);
  if (keys === undefined) {
    keys = [...subs].map((key) => ({ words: key.replace(/\+$/, '').split('_'), more: key.endsWith('+') }));
    KEY_WORDS.set(subs, keys);
  }
  return keys;
}

/** `found`, unless a destination option names a plain relative folder (`cargo install --root ./tools`). */
function destined(name: string, found: string, rest: readonly string[]): string | null {
  const dest = option(optionWords(rest), T.DESTINATIONS.get(name) ?? NO_NAMES);
  if (dest === undefined) return found;
  return plainRelative(dest.value) ? null : `${found} ${dest.word}`;
}

/** bun, deno and dotnet: outside when told `-g` (or a destination outside). */
function flagged(name: string, raw: readonly string[], rest: readonly string[]): string | null {
  const sub = subcommand(name, raw, T.GLOBAL_FLAGGED);
  if (sub === null) return null;
  const dest = option(optionWords(rest), T.DESTINATIONS.get(name) ?? NO_NAMES);
  if (dest !== undefined) return plainRelative(dest.value) ? null : `${name} ${sub} ${dest.word}`;
  const flag = globalFlag(rest);
  if (flag !== null) return `${name} ${sub} ${flag}`;
  // `bun link` with nothing to link registers this package globally (only bun's row has link).
  return sub === 'link' && raw.every((w, i) => i === 0 || w.startsWith('-')) ? 'bun link' : null;
}

/** `subs`: where npm's (or pnpm's) command may start in rest. */
function npmGlobal(
  verb: string,
  name: string,
  rest: readonly string[],
  env: Env,
  subs: readonly number[],
): string | null {
  for (const s of subs) {
    const raw = rest.slice(s);
    const words = raw.filter((w) => !w.startsWith('-'));
    if (words[0] === undefined) continue;
    const home = subcommand(name, raw, T.HOME_WRITERS);
    if (home !== null) return `${name} ${home}`;
    // pnpm's writers and their aliases (add, i, rm, un, up, ln...) are spelled as npm's.
    const names = npmCommand(words[0]!).names;
    const config = npmConfigWrite(verb, names, words, rest, env);
    if (config !== null) return config;
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
  if (!uv)
    for (const n of ['pip_target', 'pip_prefix', 'pip_root'])
      if (env.has(n) && !plainRelative(valueOf(env.get(n)!))) return `${verb} ${env.get(n)}`;
  return null;
}

/** `python3 -Im pip install --user x` is pip; the first word that is no option is a script (its words are its own). */
function pythonModule(verb: string, rest: readonly string[], env: Env, handoffs: number): string | null {
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
      if (w[k] === 'm')
        return moduleInstall(verb, attached ? w.slice(k + 1) : rest[i + 1], rest.slice(next), env, handoffs);
      i = next - 1;
      break;
    }
  }
  return null;
}

/**
 * `python -m M args` runs module M as the command M would (`-m pip`, `-m pipx install`, `-m uv tool
 * install`); ensurepip installs pip, outside only when told `--user` or a root.
 */
function moduleInstall(
  verb: string,
  module: string | undefined,
  args: readonly string[],
  env: Env,
  handoffs: number,
): string | null {
  if (module === undefined) return null;
  const name = MODULE_COMMANDS.get(module.replace(/\.__main__$/, '')) ?? module.replace(/\.__main__$/, '');
  if (name === 'ensurepip') {
    const flag = option(args, ['--user', '--root'], true);
    return flag === undefined ? null : `${verb} -m ${module} ${flag.word}`;
  }
  const found = installer([...env.values(), name, ...args], env.size, handoffs + 1);
  if (found === null) return null;
  return `${verb} -m ${module} ${found.startsWith(`${name} `) ? found.slice(name.length + 1) : found}`;
}

/** conda's writers go into a named or the base environment unless told a folder (`-p ./env`). */
function conda(name: string, rest: readonly string[], subs: readonly number[]): string | null {
  for (const s of subs) {
    const [sub, second] = rest.slice(s).filter((w) => !w.startsWith('-'));
    const writes =
      sub === 'env'
        ? T.CONDA_ENV_WRITERS.has(second!)
        : sub === 'config'
          ? option(rest, T.CONDA_CONFIG_WRITES) !== undefined
          : T.CONDA_WRITERS.has(sub!);
    if (writes) return destined('conda', `${name} ${sub}`, rest);
  }
  return null;
}
