// Git subcommands the engine can name (issue 9, attacked after A.4): with deny `Terminal(git reset
// --hard)` and allow `Terminal(git:*)`, `git r --hard` ran `git reset --hard` through an alias in
// the user's ~/.gitconfig, which decide() cannot see (and `help.autocorrect` turns a typo such
// as `git pusj` into a push). Git runs its own commands before any alias, so a subcommand on the
// list below means what it says; any other word may be an outside alias, and then no deny rule or
// ceiling can be checked: it asks, unless an allow pattern names that subcommand (`Terminal(git
// lfs:*)` keeps `git lfs pull` allowed).
import { gitSubcommandIndex } from './external-effect.ts';
import { basename } from './wrappers.ts';

/**
 * `git --list-cmds=main` of git 2.39 (builtins and the programs in git's exec-path), plus the
 * commands that distributions ship as separate packages (svn, send-email, gui, p4, cvs*) and
 * those added by later releases (replay, backfill, refs, last-modified, repo).
 */
const GIT_COMMANDS: ReadonlySet<string> = new Set(
  (
    'add add--interactive am annotate apply archive bisect bisect--helper blame branch bugreport bundle ' +
    'cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker ' +
    'checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree config ' +
    'count-objects credential credential-cache credential-cache--daemon credential-store daemon describe ' +
    'diagnose diff diff-files diff-index diff-tree difftool difftool--helper env--helper fast-export ' +
    'fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch ' +
    'fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook http-backend ' +
    'http-fetch http-push imap-send index-pack init init-db instaweb interpret-trailers log ls-files ' +
    'ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index ' +
    'merge-octopus merge-one-file merge-ours merge-recursive merge-recursive-ours merge-recursive-theirs ' +
    'merge-resolve merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes ' +
    'pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push quiltimport ' +
    'range-diff read-tree rebase receive-pack reflog remote remote-ext remote-fd remote-ftp remote-ftps ' +
    'remote-http remote-https repack replace request-pull rerere reset restore rev-list rev-parse revert ' +
    'rm send-pack sh-i18n--envsubst shell shortlog show show-branch show-index show-ref sparse-checkout ' +
    'stage stash status stripspace submodule submodule--helper subtree switch symbolic-ref tag ' +
    'unpack-file unpack-objects update-index update-ref update-server-info upload-archive ' +
    'upload-archive--writer upload-pack var verify-commit verify-pack verify-tag version web--browse ' +
    'whatchanged worktree write-tree ' +
    'svn send-email gui citool p4 cvsimport cvsserver cvsexportcommit archimport credential-netrc ' +
    'replay backfill refs last-modified repo'
  ).split(' '),
);

/** The git subcommands the allow patterns name explicitly (`Terminal(git lfs:*)` -> `lfs`). */
export function gitSubcommandsNamed(patterns: readonly (readonly string[])[]): ReadonlySet<string> {
  const named = new Set<string>();
  for (const argv of patterns) {
    if (argv[0] === undefined || basename(argv[0]) !== 'git') continue;
    const at = gitSubcommandIndex(argv);
    if (at === -1) continue;
    const word = argv[at]!;
    named.add(at === argv.length - 1 && word.endsWith(':*') ? word.slice(0, -2) : word);
  }
  return named;
}

/** `git WORD …` where WORD is not a git command nor named by an allow pattern: `git WORD`, else null. */
export function gitSubcommandUnknown(view: readonly string[], named: ReadonlySet<string>): string | null {
  if (view[0] === undefined || basename(view[0]) !== 'git') return null;
  const at = gitSubcommandIndex(view);
  if (at === -1) return null;
  const word = view[at]!;
  return GIT_COMMANDS.has(word) || named.has(word) ? null : `git ${word}`;
}
