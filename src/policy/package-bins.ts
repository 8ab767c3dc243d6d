// `pnpm tsc`, `yarn eslint .`, `bun vitest`: a package manager given a word that is not one of
// its commands runs the script or the installed binary of that name, and pnpm falls back to
// running it as a command (`pnpm git push` runs `git push`). For deny rules and ceilings the
// words after the package manager are one more reading (wrappers.ts): one more reading can only
// find more denies and ceilings. Its own commands are not (`pnpm install` is not `install`).
import { isNpmCommand } from './subcommand-aliases.ts';

// Stryker disable next-line MethodExpression,StringLiteral: the lists below hold no empty word however they are split, and an empty word after a package manager runs nothing either way.
const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter((w) => w !== ''));

/** Each package manager's own commands (pnpm 10, yarn 1 and 4, bun 1.2), with their aliases. */
const OWN_COMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [
    'pnpm',
    words(`add install i update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune
      fetch install-test it patch patch-commit patch-remove audit list ls ll la outdated why licenses run
      run-script test t tst exec dlx create start stop restart publish pack recursive m multi server store
      root bin setup init deploy doctor config c get set env cat-file cat-index find-hash self-update
      approve-builds ignored-builds help dedupe catalog`),
  ],
  [
    'yarn',
    words(`add audit autoclean bin cache check config create dedupe dlx exec explain constraints generate-lock-entry
      global help import info init install licenses link list login logout node npm outdated owner pack patch
      patch-commit plugin policies publish rebuild remove run search set stage tag team test unlink unplug up
      upgrade upgrade-interactive version versions why workspace workspaces`),
  ],
  [
    'bun',
    words(`run test x exec install i add a remove rm update outdated link unlink pm build init create c upgrade
      publish patch patch-commit audit info why repl completions discord help feedback`),
  ],
]);

/** The package manager a reading starts with, when its next word runs a binary or script; else null. */
export function packageBinReading(name: string, view: readonly string[]): readonly string[] | null {
  const own = OWN_COMMANDS.get(name);
  const word = view[1];
  if (own === undefined || word === undefined || word.startsWith('-')) return null;
  if (own.has(word) || (name === 'pnpm' && isNpmCommand(word))) return null;
  return view.slice(1);
}
