// The global options of each CLI (cli-options.ts, issue 9 A.4) and subcommandStarts: where a
// subcommand may start once they are skipped. A valued option takes the next word, a flag does
// not, and an unknown option is read both ways so a deny sees every reading. git's table is
// checked against the usage line of the git on this machine (`git --help`); the other CLIs by
// one valued option and one flag each (their --help lists them).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_GLOBAL_OPTIONS, subcommandStarts } from '../../src/policy/cli-options.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

function starts(command: string): number[] {
  const argv = command.split(' ');
  const table = CLI_GLOBAL_OPTIONS.get(argv[0]!);
  if (table === undefined) throw new Error(`no global options for ${argv[0]}`);
  return subcommandStarts(argv, table);
}

/**
 * `git --help`'s usage: each option and whether it takes a value (`-C <path>`, `--git-dir=<path>`).
 * `--exec-path[=<path>]` is left out: bare, git prints its exec path and runs no subcommand.
 */
function gitUsageOptions(): { option: string; valued: boolean }[] | null {
  let help: string;
  try {
    help = execFileSync('git', ['--help'], { encoding: 'utf8', env: { ...process.env, LANG: 'C', LC_ALL: 'C' } });
  } catch {
    return null;
  }
  const usage = help.slice(0, help.indexOf('<command>'));
  const found: { option: string; valued: boolean }[] = [];
  for (const m of usage.matchAll(/(-{1,2}[a-zA-Z][a-zA-Z-]*)(\[?[= ]<)?/g)) {
    if (m[2] === '[=<') continue;
    found.push({ option: m[1]!, valued: m[2] !== undefined });
  }
  return found;
}

const gitOptions = gitUsageOptions();

describe.skipIf(gitOptions === null)("issue 9 A.4: git's global options are the ones git's usage lists", () => {
  it('the usage line was read', () => {
    expect(gitOptions!.map((o) => o.option)).toEqual(expect.arrayContaining(['-C', '-c', '--no-pager', '--bare']));
  });
  for (const { option, valued } of gitOptions ?? []) {
    it(`git ${option}${valued ? ' <value>' : ''}: the subcommand is the next word${valued ? ' but one' : ''}`, () => {
      expect(starts(valued ? `git ${option} v status x` : `git ${option} status x`)).toEqual([valued ? 3 : 2]);
    });
  }
});

describe('issue 9 A.4: subcommandStarts, per CLI', () => {
  const rows: readonly (readonly [string, number[]])[] = [
    ['git -C dir status x', [3]],
    ['git --no-pager status x', [2]],
    ['git --namespace n --list-cmds=main --attr-source x status y', [6]],
    ['git --no-lazy-fetch --no-advice --glob-pathspecs --noglob-pathspecs --icase-pathspecs status x', [6]],
    ['git --literal-pathspecs --no-optional-locks -P -p status x', [5]],
    ['gh -R o/r pr merge', [3]],
    ['gh --help pr merge', [2]],
    ['glab --repo o/r mr merge', [3]],
    ['glab --version mr merge', [2]],
    ['kubectl -n prod delete pod x', [3]],
    ['kubectl --insecure-skip-tls-verify delete pod', [2]],
    ['kubectl --disable-compression delete pod', [2]],
    ['helm --kube-context prod uninstall api', [3]],
    ['helm --debug uninstall api', [2]],
    ['helm --kube-insecure-skip-tls-verify uninstall api', [2]],
    ['terraform -version destroy x', [2]],
    ['tofu -help destroy x', [2]],
    ['docker --context prod rm -f api', [3]],
    ['docker -D rm api', [2]],
    ['docker --tlsverify rm api', [2]],
    ['podman --connection prod rm api', [3]],
    ['podman --remote rm api', [2]],
    ['npm --prefix /tmp publish x', [3]],
    ['npm -g publish x', [2]],
    ['npm --json publish x', [2]],
    ['pnpm --filter app publish x', [3]],
    ['pnpm -r publish x', [2]],
    ['pnpm --parallel publish x', [2]],
    ['yarn --cwd app publish x', [3]],
    ['yarn --json publish x', [2]],
    ['cargo --config k=v publish x', [3]],
    ['cargo -Z unstable publish x', [3]],
    ['cargo --locked publish x', [2]],
    ['cargo -V publish x', [2]],
    ['gem --version push x', [2]],
    ['gem -V push x', [2]],
    ['aws --profile prod s3 rm x', [3]],
    ['aws --no-cli-pager s3 rm x', [2]],
    ['gcloud --project p compute instances delete x', [3]],
    ['gcloud --log-http compute instances delete x', [2]],
    ['az --subscription s vm delete x', [3]],
    ['az --only-show-errors vm delete x', [2]],
  ];
  for (const [command, expected] of rows) {
    it(`${command} -> subcommand at ${expected.join(' or ')}`, () => {
      expect(starts(command)).toEqual(expected);
    });
  }
});

describe('issue 9 A.4: subcommandStarts reads every way an argv may go', () => {
  const rows: readonly (readonly [string, number[]])[] = [
    ['git status', [1]],
    ['git', []],
    ['git --no-pager', []],
    ['git -C dir', []],
    ['git -C', []],
    // An unknown option may take a value or not: both readings.
    ['git --frobnicate x status', [2, 3]],
    ['git --frobnicate status', [2]],
    ['git --frobnicate', []],
    // `--name=value` and a cluster never take the next word.
    ['git --git-dir=/tmp/x status', [2]],
    ['git -pP status', [2]],
    ['git -Cdir status', [2]],
    ['git -pC dir status', [3]],
    ['git -px status y', [2, 3]],
    // `--` ends the options.
    ['git -- status', [2]],
    ['git --no-pager -- status', [3]],
    ['git - status', [1]],
    ['docker --frobnicate --also x rm', [3, 4]],
  ];
  for (const [command, expected] of rows) {
    it(`${command} -> ${expected.length === 0 ? 'no subcommand' : `subcommand at ${expected.join(' or ')}`}`, () => {
      expect(starts(command)).toEqual(expected);
    });
  }

  it('CLIs without a table have none', () => {
    for (const cli of ['ls', 'make', 'ruby', 'pip']) expect(CLI_GLOBAL_OPTIONS.has(cli), cli).toBe(false);
  });
});

describe('issue 9 A.4: a deny holds past the global options (decide)', () => {
  const permissions = {
    ...MANUAL.permissions,
    allow: ['Terminal(docker:*)', 'Terminal(git:*)', 'Terminal(kubectl:*)'],
    deny: ['Terminal(docker rm)', 'Terminal(git reset --hard)', 'Terminal(kubectl delete)'],
  };
  const rows: readonly (readonly [string, string])[] = [
    ['docker --context prod rm -f api', 'deny'],
    ['docker -H tcp://h:2375 rm api', 'deny'],
    ['docker --tls rm api', 'deny'],
    ['git --no-pager reset --hard', 'deny'],
    ['git --bare reset --hard', 'deny'],
    ['kubectl -n prod delete pod x', 'deny'],
    ['kubectl --insecure-skip-tls-verify delete pod x', 'deny'],
    ['docker --context prod ps', 'auto_approve'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      const decision = decide(terminalInput(MANUAL, { command, permissions }));
      expect(decision.policy, decision.reason).toBe(policy);
    });
  }
});
