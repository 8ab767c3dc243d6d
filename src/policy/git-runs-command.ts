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

/** Per subcommand: long options (any GNU prefix of at least this spelling), short letters (any of them), words. */
const RUNS: ReadonlyMap<string, { long: readonly string[]; short: string; words: readonly string[] }> = new Map([
  ['rebase', { long: ['--exec'], short: 'x', words: [] }],
  ['bisect', { long: [], short: '', words: ['run'] }],
  ['difftool', { long: ['--extcmd'], short: 'x', words: [] }],
  ['grep', { long: ['--open-files-in-pager'], short: 'O', words: [] }],
  ['submodule', { long: [], short: '', words: ['foreach'] }],
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
      short: '',
      words: [],
    },
  ],
  ['fetch', { long: ['--upload-pack'], short: '', words: [] }],
  ['pull', { long: ['--upload-pack'], short: '', words: [] }],
  ['clone', { long: ['--upload-pack', '--template', '--config', '--separate-git-dir'], short: 'uc', words: [] }],
  ['init', { long: ['--template', '--separate-git-dir'], short: '', words: [] }],
  ['init-db', { long: ['--template', '--separate-git-dir'], short: '', words: [] }],
  ['maintenance', { long: [], short: '', words: ['register', 'unregister', 'start', 'stop'] }],
  ['apply', { long: ['--unsafe-paths'], short: '', words: [] }],
  [
    'send-email',
    { long: ['--sendmail-cmd', '--smtp-server', '--to-cmd', '--cc-cmd', '--header-cmd'], short: '', words: [] },
  ],
  ['ls-remote', { long: ['--upload-pack'], short: '', words: [] }],
  ['archive', { long: ['--exec'], short: '', words: [] }],
  ['push', { long: ['--receive-pack', '--exec'], short: '', words: [] }],
  ['send-pack', { long: ['--receive-pack', '--exec'], short: '', words: [] }],
  ['fetch-pack', { long: ['--upload-pack', '--exec'], short: '', words: [] }],
  // `--httpd` is "the HTTP daemon command-line that will be executed" (git help instaweb).
  ['instaweb', { long: ['--httpd'], short: 'd', words: [] }],
]);

/** `git SUBCOMMAND … --option CMD` that runs CMD, named; null otherwise. One pass. */
export function gitRunsCommand(argv: readonly string[]): string | null {
  if (argv[0] === undefined || basename(argv[0]) !== 'git') return null;
  const at = gitSubcommandIndex(argv);
  if (at < 0) return null;
  const sub = argv[at]!;
  const runs = RUNS.get(sub);
  if (runs === undefined) return null;
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (runs.words.includes(word)) return `git ${sub} ${word}`;
    if (word.startsWith('--')) {
      const name = word.slice(0, word.indexOf('=') > 0 ? word.indexOf('=') : word.length);
      // GNU-style prefixes (`--exe`), never shorter than `--` plus two letters.
      if (name.length > 3 && runs.long.some((option) => option.startsWith(name))) return `git ${sub} ${name}`;
    } else if (word.startsWith('-')) {
      for (const letter of runs.short) if (word.slice(1).includes(letter)) return `git ${sub} -${letter}`;
    }
  }
  return null;
}
