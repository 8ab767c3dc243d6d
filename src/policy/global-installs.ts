// Package managers and toolchains told to install outside the project (an attacker's finding,
// issue 9 A.3 in spirit): `npm i -g x`, `pnpm add -g x`, `bun add -g x`, `yarn global add x`,
// `pip install --user x`, `python3 -m pip install --user x`, `uv pip install --system x` write
// into the user's or the system's folders, whatever the command's own words say; `cargo install`,
// `go install`, `gem install`, `brew install`, `rustup toolchain install`, `uv tool install` and
// their kin do so by default. The path scope counts them as outside the root (scope.ts judges
// every reading through the wrappers: `env npm i -g x` too).
import { npmCommand } from './subcommand-aliases.ts';
import { basename } from './wrappers.ts';

const NPM_WRITERS = new Set(['install', 'uninstall', 'update', 'link', 'ci', 'rebuild', 'dedupe', 'prune']);
// `-g` and clusters with g (`-gD`) are read by the letter test below.
const GLOBAL_FLAGS = new Set(['--global', '--location=global', '--location=user']);
const PIP_OUTSIDE = ['--user', '--target', '-t', '--prefix', '--root', '--break-system-packages', '--system'];

/**
 * Tools whose subcommand (one word, or two: `toolchain install`) writes into the user's or the
 * system's folders by default: ~/.cargo, ~/go, the gem home, Homebrew's prefix, ~/.rustup,
 * Volta's, mise's and asdf's homes, composer's and poetry's own, node's bin folder (corepack
 * shims), gh's extensions.
 */
const HOME_WRITERS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    cargo: 'install uninstall binstall',
    go: 'install',
    gem: 'install uninstall update cleanup',
    brew: 'install reinstall upgrade uninstall remove rm tap untap link unlink update cleanup autoremove pin unpin',
    rustup:
      'install uninstall update default set toolchain_install toolchain_uninstall toolchain_link component_add ' +
      'component_remove target_add target_remove self_update self_uninstall override_set override_unset',
    volta: 'install uninstall fetch setup',
    mise: 'install uninstall use upgrade prune self-update plugins_install plugins_uninstall plugins_update',
    asdf: 'install uninstall global reshim plugin_add plugin_remove plugin_update',
    composer: 'global',
    poetry: 'self',
    corepack: 'enable disable',
    gh: 'extension_install extension_upgrade extension_remove ext_install ext_upgrade ext_remove',
    uv: 'tool_install tool_upgrade tool_uninstall',
    pipx: 'install uninstall upgrade upgrade-all reinstall reinstall-all inject ensurepath',
  }).map(([tool, subs]) => [tool, new Set(subs.split(' ').map((s) => s.replace('_', ' ')))]),
);

/** Tools whose listed subcommands write outside the project when told `-g`/`--global` (or a tool path). */
const GLOBAL_FLAGGED: ReadonlyMap<string, { subs: ReadonlySet<string>; flags: readonly string[] }> = new Map([
  [
    'bun',
    {
      subs: new Set(['add', 'a', 'install', 'i', 'remove', 'rm', 'update', 'link', 'unlink']),
      flags: ['-g', '--global'],
    },
  ],
  ['deno', { subs: new Set(['install', 'i', 'uninstall']), flags: ['-g', '--global', '--root'] }],
  [
    'dotnet',
    { subs: new Set(['tool install', 'tool update', 'tool uninstall']), flags: ['-g', '--global', '--tool-path'] },
  ],
]);

/** conda's writers go into a named or the base environment unless told a folder (`-p ./env`). */
const CONDA_LIKE = new Set(['conda', 'mamba', 'micromamba']);
const CONDA_WRITERS = new Set([
  'install',
  'update',
  'upgrade',
  'remove',
  'uninstall',
  'create',
  'env',
  'config',
  'clean',
  'init',
]);

/** The first two words that are no option (nor a `+toolchain`), the subcommand and its own. */
function subcommandWords(rest: readonly string[]): [string | undefined, string | undefined] {
  const words = rest.filter((w) => !w.startsWith('-') && !w.startsWith('+'));
  return [words[0], words[1]];
}

const hasOption = (rest: readonly string[], options: readonly string[]): string | undefined =>
  rest.find((w) => options.some((o) => w === o || w.startsWith(o + '=')));

/** The word that sends the install outside the project, or null. */
export function globalInstall(argv: readonly string[], verbAt: number): string | null {
  const verb = argv[verbAt];
  if (verb === undefined) return null;
  const name = basename(verb);
  const rest = argv.slice(verbAt + 1);
  if (name === 'npm' || name === 'pnpm') return npmGlobal(verb, rest);
  if (name === 'yarn') return rest[0] === 'global' ? 'yarn global' : null;
  // `python3 -m pip install --user x` is pip: its own options come before `-m`.
  if (/^python[0-9.]*$/.test(name)) return pythonModule(verb, rest);
  // uv reads pip's options in `uv pip install` and in what `uv run` runs.
  if (/^pip[0-9.]*$/.test(name) || name === 'uv') {
    const flag = hasOption(rest, PIP_OUTSIDE);
    if (flag !== undefined) return `${verb} ${flag}`;
    if (name !== 'uv') return null;
  }
  if (/^(code|code-insiders|codium)$/.test(name)) {
    const flag = hasOption(rest, ['--install-extension', '--uninstall-extension']);
    return flag === undefined ? null : `${name} ${flag.split('=')[0]}`;
  }
  if (CONDA_LIKE.has(name)) {
    const [sub] = subcommandWords(rest);
    if (sub === undefined || !CONDA_WRITERS.has(sub) || hasOption(rest, ['-p', '--prefix']) !== undefined) return null;
    return `${name} ${sub}`;
  }
  const [first, second] = subcommandWords(rest);
  if (first === undefined) return null;
  const home = HOME_WRITERS.get(name);
  if (home !== undefined) {
    if (second !== undefined && home.has(`${first} ${second}`)) return `${name} ${first} ${second}`;
    return home.has(first) ? `${name} ${first}` : null;
  }
  const flagged = GLOBAL_FLAGGED.get(name);
  if (flagged === undefined) return null;
  const sub = flagged.subs.has(first)
    ? first
    : second !== undefined && flagged.subs.has(`${first} ${second}`)
      ? `${first} ${second}`
      : null;
  if (sub === null) return null;
  const flag = hasOption(rest, flagged.flags);
  // `bun link` with nothing to link registers this package globally.
  if (flag === undefined) return name === 'bun' && sub === 'link' && second === undefined ? 'bun link' : null;
  return `${name} ${sub} ${flag}`;
}

function npmGlobal(verb: string, rest: readonly string[]): string | null {
  const sub = rest.find((w) => !w.startsWith('-'));
  if (sub === undefined) return null;
  // pnpm's writers and their aliases (add, i, rm, un, up, ln...) are spelled as npm's.
  const names = npmCommand(sub).names;
  const flag = rest.find((w) => GLOBAL_FLAGS.has(w) || (/^-[a-zA-Z]+$/.test(w) && w.includes('g')));
  if (flag !== undefined) return names.some((n) => NPM_WRITERS.has(n)) ? `${verb} ${flag}` : null;
  // `npm link` in a package folder links it into the global folder first (so does a folder).
  if (!names.includes('link')) return null;
  const target = rest.slice(rest.indexOf(sub) + 1).find((w) => !w.startsWith('-'));
  return target === undefined || target.startsWith('.') || target.includes('/') ? `${verb} link` : null;
}

function pythonModule(verb: string, rest: readonly string[]): string | null {
  const m = rest.findIndex((w) => w.startsWith('-m'));
  if (m === -1) return null;
  const module = rest[m] === '-m' ? rest[m + 1] : rest[m]!.slice(2);
  if (module === undefined || !/^(pip[0-9.]*|ensurepip)$/.test(module)) return null;
  const found = globalInstall(['pip', ...rest.slice(rest[m] === '-m' ? m + 2 : m + 1)], 0);
  return found === null ? null : `${verb} -m ${module} ${found.slice('pip '.length)}`;
}
