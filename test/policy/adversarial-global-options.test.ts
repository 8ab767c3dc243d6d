// Issue 9 A.4: deny rules through a CLI's global options. With allow Terminal(git) and deny
// Terminal(git reset --hard), `git -C . reset --hard` was auto-approved; so was
// `docker --context prod rm -f api` past deny Terminal(docker rm). Deny (and ask) matching skips
// each CLI's global options, from the same tables the ceilings use.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import type { Permissions } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const CLI_PERMS: Permissions = {
  allow: ['Terminal(git)', 'Terminal(docker)', 'Terminal(kubectl)', 'Terminal(npm)', 'Terminal(helm)', 'Terminal(gh)'],
  deny: [
    'Terminal(git reset --hard)',
    'Terminal(git clean -fdx)',
    'Terminal(docker rm)',
    'Terminal(kubectl delete)',
    'Terminal(npm uninstall)',
    'Terminal(helm uninstall)',
    'Terminal(gh repo delete)',
  ],
  ask: ['Terminal(git commit)', 'Terminal(docker exec)'],
};
const CLI = { ...MANUAL, label: 'CLIs allowed, dangerous subcommands denied', permissions: CLI_PERMS };
const DENY = deny('permissions_deny');

runCases('RN-418/issue 9 A.4 deny sees past global options', CLI, [
  c('git -C . reset --hard', DENY),
  c('git --no-pager reset --hard', DENY),
  c('git -c core.pager=cat reset --hard', DENY),
  c('git --git-dir=.git reset --hard', DENY),
  c('git --work-tree . reset --hard HEAD~1', DENY),
  c('git -P reset --hard', DENY),
  c('git --no-optional-locks -C src reset --hard', DENY),
  c('/usr/bin/git -C . reset --hard', DENY),
  c('timeout 9 git -C . reset --hard', DENY),
  c('git --bogus-option reset --hard', DENY, { note: 'an unknown option is read both ways' }),
  c('git --bogus-option value reset --hard', DENY),
  c('git -C src -C .. clean -fdx', DENY),
  c('docker --context prod rm -f api', DENY),
  c('docker -H tcp://10.0.0.1:2375 rm api', DENY),
  c('docker --debug --log-level info rm api', DENY),
  c('kubectl -n prod delete pod x', DENY),
  c('kubectl --context prod --namespace x delete deploy y', DENY),
  c('npm --prefix x uninstall y', DENY),
  c('helm --kube-context prod uninstall api', DENY),
  c('gh -R o/r repo delete', DENY),
  c('sh -c "git -C . reset --hard"', DENY),
]);

runCases('global options do not turn other subcommands into denies', CLI, [
  c('git -C . status', auto('permissions_allow')),
  c('git --no-pager log --oneline', auto()),
  c('docker --context prod ps', auto('permissions_allow')),
  c('kubectl -n prod get pods', auto('permissions_allow')),
  c('git -C reset status', auto(), { note: '-C takes reset as its value' }),
  c('git log -- reset --hard', auto('permissions_allow')),
  c('git -C . commit -m x', ask('permissions_ask'), { note: 'ask sees past them too' }),
  c('docker --context prod exec api ls', ask('permissions_ask')),
  c('git commit -m x', ask('permissions_ask')),
  c('docker rmi x', auto('permissions_allow')),
]);

describe('property: any run of git global options before reset --hard is denied', () => {
  const GIT_OPTIONS = [
    '-C .',
    '-C src',
    '-c a.b=c',
    '--no-pager',
    '-P',
    '-p',
    '--bare',
    '--git-dir=.git',
    '--git-dir .git',
    '--work-tree=.',
    '--namespace x',
    '--literal-pathspecs',
    '--no-optional-locks',
    '--unknown',
    '-X',
  ];
  it('RN-418 deny git reset --hard past 0..5 global options', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...GIT_OPTIONS), { maxLength: 5 }),
        fc.constantFrom('', ' HEAD~1', ' origin/main'),
        (options, rest) => {
          const command = ['git', ...options, 'reset', '--hard'].join(' ') + rest;
          const d = decide(terminalInput(CLI, { command }));
          expect(d.policy, command).toBe('deny');
        },
      ),
      { numRuns: 300 },
    );
  });
  it('RN-418 deny docker rm past docker global options', () => {
    const DOCKER_OPTIONS = [
      '--context prod',
      '-c prod',
      '-H unix:///x.sock',
      '--host tcp://h',
      '-D',
      '--debug',
      '--tls',
      '--config /tmp/c',
      '-l debug',
      '--log-level=info',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...DOCKER_OPTIONS), { maxLength: 4 }), (options) => {
        const command = ['docker', ...options, 'rm', '-f', 'api'].join(' ');
        expect(decide(terminalInput(CLI, { command })).policy, command).toBe('deny');
      }),
      { numRuns: 200 },
    );
  });
});
