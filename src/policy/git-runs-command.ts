// Git subcommands that run a command given on their own command line (attacked after issue 9):
// `git rebase -x CMD`, `git bisect run CMD`, `git difftool -x CMD`, `git grep -O CMD`,
// `git submodule foreach CMD`, `git filter-branch --tree-filter CMD`, `git fetch|clone|ls-remote|
// fetch-pack --upload-pack=CMD`, `git archive --exec=CMD`, `git instaweb --httpd=CMD`, `git
// send-email --sendmail-cmd=CMD`. The engine does not read that command, so an allowed `git
// rebase:*` would run `cat ../secret` unjudged: such a command is never auto-approved. So are the
// ones that plant what git runs later or write outside the worktree: `git clone -c
// core.fsmonitor=CMD`, `git init|clone --template=DIR` (its hooks and config are copied in), `git
// maintenance register|start` (the global config, a scheduler) and `git apply --unsafe-paths`.
import { gitSubcommandIndex } from './external-effect.ts';
import { basename } from './wrappers.ts';

/** Per subcommand: long options (any GNU prefix of at least this spelling), short letters (any of them), words. A field left out is empty. */
interface Runs {
  long?: readonly string[];
  short?: string;
  words?: readonly string[];
}

// Keyed by `string | undefined`: argv[-1], when git has no subcommand, is no row.
const RUNS: ReadonlyMap<string | undefined, Runs> = new Map<string | undefined, Runs>([
  ['rebase', { long: ['--exec'], short: 'x' }],
  ['bisect', { words: ['run'] }],
  ['difftool', { long: ['--extcmd'], short: 'x' }],
  ['grep', { long: ['--open-files-in-pager'], short: 'O' }],
  ['submodule', { words: ['foreach'] }],
  [
    'filter-branch',
    {
      long: [
        '--env-filter',
        '--tree-filter',
        '--index-filter',
        '--msg-filter',
        '--commit-filter',
        '--parent-filter',
        '--tag-name-filter',
      ],
    },
  ],
  ['fetch', { long: ['--upload-pack'] }],
  ['pull', { long: ['--upload-pack'] }],
  ['clone', { long: ['--upload-pack', '--template', '--config', '--separate-git-dir'], short: 'uc' }],
  ['init', { long: ['--template', '--separate-git-dir'] }],
  ['init-db', { long: ['--template', '--separate-git-dir'] }],
  ['maintenance', { words: ['register', 'unregister', 'start', 'stop'] }],
  ['apply', { long: ['--unsafe-paths'] }],
  ['send-email', { long: ['--sendmail-cmd', '--smtp-server', '--to-cmd', '--cc-cmd', '--header-cmd'] }],
  ['ls-remote', { long: ['--upload-pack'] }],
  ['archive', { long: ['--exec'] }],
  ['push', { long: ['--receive-pack', '--exec'] }],
  ['send-pack', { long: ['--receive-pack', '--exec'] }],
  ['fetch-pack', { long: ['--upload-pack', '--exec'] }],
  // `--httpd` is "the HTTP daemon command-line that will be executed" (git help instaweb).
  ['instaweb', { long: ['--httpd'], short: 'd' }],
]);

/** `git SUBCOMMAND … --option CMD` that runs CMD, named; null otherwise. One pass. */
export function gitRunsCommand(argv: readonly string[]): string | null {
  if (argv[0] === undefined || basename(argv[0]) !== 'git') return null;
  const at = gitSubcommandIndex(argv);
  const runs = RUNS.get(argv[at]);
  if (runs === undefined) return null;
  const sub = argv[at]!;
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (runs.words?.includes(word) === true) return `git ${sub} ${word}`;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq === -1 ? word : word.slice(0, eq);
      // GNU-style prefixes (`--exe`), never shorter than `--` plus two letters.
      if (name.length > 3 && runs.long?.some((option) => option.startsWith(name)) === true) return `git ${sub} ${name}`;
    } else if (word.startsWith('-')) {
      for (const letter of runs.short ?? '') if (word.includes(letter, 1)) return `git ${sub} -${letter}`;
    }
  }
  return null;
}
