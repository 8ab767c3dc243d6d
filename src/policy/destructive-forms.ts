// "Always allow" and subcommands with destructive forms (issue 15.7; the pre-seed section of the
// spec warns about exactly this): the RN-675 unit `verb subcommand` is a token prefix, so
// `Terminal(git branch)`, written for `git branch -a`, also matches `git branch -D main`. For the
// subcommands below a flag or a second word turns a read into a delete, a reset or a rewrite, so
// the click keeps the exact fragment; the bare unit on its own writes nothing (like `git` alone).
import { basename } from './wrappers.ts';

/** CLIs where nearly every subcommand has such forms (`docker image ls` / `docker image prune`). */
const EVERY_SUBCOMMAND: ReadonlySet<string> = new Set([
  'docker',
  'podman',
  'nerdctl',
  'kubectl',
  'oc',
  'helm',
  'terraform',
  'tofu',
  'pulumi',
  'systemctl',
  'launchctl',
  'aws',
  'gcloud',
  'az',
  'virsh',
]);

/** Per CLI, the subcommands whose unit would also match a destructive form. */
const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    git: [
      'branch', // -d/-D/-m/-M/-f
      'tag', // -d/-f
      'remote', // remove/rename/set-url/prune
      'stash', // drop/clear/pop
      'worktree', // remove/prune/move
      'config', // --unset/--replace-all/set
      'notes', // remove/prune
      'reflog', // expire/delete
      'submodule', // deinit/foreach
      'symbolic-ref', // -d
      'update-ref', // -d
      'sparse-checkout', // set/disable
      'lfs', // prune/uninstall
      'gc', // --prune=now
      'prune',
      'reset', // --hard
      'clean', // -fdx
      'checkout', // -- . / -f
      'restore', // --worktree .
      'switch', // --discard-changes / -C
      'rm',
      'replace', // -d
      'filter-branch',
      'filter-repo',
      'maintenance', // unregister
      'credential', // reject/erase
      'rerere', // forget/clear
      // Subcommands that run a command they are given.
      'rebase', // --exec/-x CMD
      'bisect', // run CMD
      'difftool', // -x/--extcmd CMD
      'mergetool', // --tool with a configured cmd
      'grep', // -O/--open-files-in-pager CMD
    ],
    npm: [
      'cache', // clean --force
      'config', // delete/set
      'pkg', // delete/set
      'dist-tag', // rm
      'owner', // rm
      'token', // revoke
      'access',
      'team',
      'org',
      'hook',
      'profile',
      'deprecate',
      'link',
      'unlink',
      'prune',
      'uninstall',
      'remove',
      'rm',
      'r',
      'un',
      'set',
    ],
    pnpm: ['store', 'config', 'remove', 'rm', 'uninstall', 'un', 'prune', 'unlink', 'link', 'env', 'cache'],
    yarn: ['cache', 'config', 'remove', 'unlink', 'link', 'global', 'policies', 'set'],
    bun: ['pm', 'remove', 'rm', 'unlink', 'link'],
    pip: ['cache', 'config', 'uninstall'],
    pip3: ['cache', 'config', 'uninstall'],
    cargo: ['uninstall', 'owner', 'yank', 'clean'],
    go: ['clean', 'env'],
    brew: ['services', 'tap', 'untap', 'uninstall', 'remove', 'rm', 'cleanup'],
    mix: ['deps.clean', 'hex.owner', 'hex.retire'],
    gh: ['repo', 'release', 'secret', 'variable', 'label', 'gist', 'ssh-key', 'gpg-key', 'cache', 'run', 'workflow'],
    glab: ['repo', 'release', 'variable', 'label', 'snippet', 'ssh-key'],
  }).map(([cli, subs]) => [cli, new Set(subs)] as const),
);

/**
 * Whether the RN-675 unit `tokens` (verb, or verb + subcommand) would also match a destructive
 * form of the command: then "Always allow" keeps the exact fragment.
 */
export function unitHasDestructiveForms(tokens: readonly string[]): boolean {
  const first = tokens[0];
  if (first === undefined) return false;
  const cli = basename(first);
  if (EVERY_SUBCOMMAND.has(cli)) return true;
  const sub = tokens[1];
  return sub !== undefined && (SUBCOMMANDS.get(cli)?.has(sub) ?? false);
}
