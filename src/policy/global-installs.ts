// Package managers told to install outside the project (an attacker's finding, issue 9 A.3 in
// spirit): `npm i -g x`, `npm install --global x`, `pnpm add -g x`, `yarn global add x`,
// `pip install --user x`, `uv pip install --system x` write into the user's or the system's
// folders, whatever the command's own words say; `cargo install`, `go install`, `gem install` and
// `uv tool install` do so by default. The path scope counts them as outside the root.
import { npmCommand } from './subcommand-aliases.ts';
import { basename } from './wrappers.ts';

const NPM_WRITERS = new Set(['install', 'uninstall', 'update', 'link', 'ci', 'rebuild', 'dedupe', 'prune']);
// `-g` and clusters with g (`-gD`) are read by the letter test below.
const GLOBAL_FLAGS = new Set(['--global', '--location=global', '--location=user']);
const PIP_OUTSIDE = ['--user', '--target', '-t', '--prefix', '--root', '--break-system-packages', '--system'];
/** Installers whose `install` writes into the user's folders by default (~/.cargo, ~/go, the gem home). */
const HOME_INSTALLERS = new Set(['cargo', 'go', 'gem']);

/** `dotnet tool install|update` options that put the tool outside the project. */
const DOTNET_OUTSIDE = ['-g', '--global', '--tool-path'];

/** The word that sends the install outside the project, or null. */
export function globalInstall(argv: readonly string[], verbAt: number): string | null {
  const verb = argv[verbAt];
  if (verb === undefined) return null;
  const name = basename(verb);
  const rest = argv.slice(verbAt + 1);
  // `python3 -m pip install --user x` is pip: its own options come before `-m`.
  if (/^python[0-9.]*$/.test(name)) {
    const m = rest.findIndex((w) => w === '-m' || w.startsWith('-m'));
    if (m === -1) return null;
    const module = rest[m] === '-m' ? rest[m + 1] : rest[m]!.slice(2);
    if (module === undefined || !/^(pip[0-9.]*|ensurepip)$/.test(module)) return null;
    const at = rest[m] === '-m' ? m + 1 : m;
    const found = globalInstall(['pip', ...rest.slice(at + 1)], 0);
    return found === null ? null : `${verb} -m ${module} ${found.slice('pip '.length)}`;
  }
  if (name === 'dotnet') {
    if (rest[0] !== 'tool' || (rest[1] !== 'install' && rest[1] !== 'update')) return null;
    const flag = rest.find((w) => DOTNET_OUTSIDE.some((o) => w === o || w.startsWith(o + '=')));
    return flag === undefined ? null : `dotnet tool ${rest[1]} ${flag}`;
  }
  if (name === 'npm' || name === 'pnpm') {
    const flag = rest.find((w) => GLOBAL_FLAGS.has(w) || (/^-[a-zA-Z]+$/.test(w) && w.includes('g')));
    if (flag === undefined) return null;
    const sub = rest.find((w) => !w.startsWith('-'));
    if (sub === undefined) return null;
    // pnpm's writers and their aliases (add, i, rm, un, up, ln...) are spelled as npm's.
    const names = npmCommand(sub).names;
    return names.some((n) => NPM_WRITERS.has(n)) ? `${verb} ${flag}` : null;
  }
  if (name === 'yarn') return rest[0] === 'global' ? 'yarn global' : null;
  // `cargo +nightly -q install x`: the subcommand is the first word that is no option or toolchain.
  if (HOME_INSTALLERS.has(name))
    return rest.find((w) => !w.startsWith('-') && !w.startsWith('+')) === 'install' ? `${name} install` : null;
  if (name === 'uv' && rest[0] === 'tool' && rest[1] === 'install') return 'uv tool install';
  if (/^pip[0-9.]*$/.test(name) || name === 'uv' || name === 'pipx') {
    if (name === 'pipx') return rest[0] === 'install' ? 'pipx install' : null;
    const flag = rest.find((w) => PIP_OUTSIDE.some((o) => w === o || w.startsWith(o + '=')));
    return flag === undefined ? null : `${verb} ${flag}`;
  }
  return null;
}
