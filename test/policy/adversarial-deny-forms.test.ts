// Issue 9 A.4, second round: deny rules read the command as its CLI reads it. A token-prefix match
// let `git reset -q --hard`, `git reset --ha`, `rm -r -f`, `rm --recursive --force`, `docker
// container remove` and `npm pub` past denies written as `git reset --hard`, `rm -rf:*`,
// `docker rm`, `npm publish`. Options are compared as a set (bundles expanded, synonyms and
// unambiguous long prefixes accepted), subcommand aliases are mapped, and an abbreviation with
// several readings asks (permissions_deny_uncertain) instead of auto-approving.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide, patternsForAction } from '../../src/policy/index.ts';
import type { Permissions } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS: Permissions = {
  allow: [
    'Terminal(git)',
    'Terminal(rm)',
    'Terminal(docker)',
    'Terminal(podman)',
    'Terminal(kubectl get)',
    'Terminal(npm)',
    'Terminal(helm)',
    'Terminal(gh)',
    'Terminal(chmod)',
  ],
  deny: [
    'Terminal(git reset --hard)',
    'Terminal(git clean -fdx)',
    'Terminal(git branch -D)',
    'Terminal(rm -rf:*)',
    'Terminal(docker rm)',
    'Terminal(docker rmi)',
    'Terminal(kubectl delete pod)',
    'Terminal(npm uninstall)',
    'Terminal(npm exec)',
    'Terminal(helm uninstall)',
    'Terminal(chmod -R)',
  ],
  ask: ['Terminal(docker container exec)', 'Terminal(npm install)'],
};
const SETUP = { ...MANUAL, label: 'CLIs allowed, dangerous forms denied', permissions: PERMS };
const DENY = deny('permissions_deny');

runCases('issue 9 A.4 option order and bundling: git reset --hard', SETUP, [
  c('git reset -q --hard', DENY),
  c('git reset --merge --hard', DENY),
  c('git reset --hard -q', DENY),
  c('git reset HEAD~1 --hard', DENY, { note: 'git permutes options after the subcommand' }),
  c('git reset --quiet --hard origin/main', DENY),
  c('git reset --no-recurse-submodules --hard', DENY),
  c('git -C . reset -q --hard', DENY),
  c('git --no-pager reset --quiet --hard HEAD', DENY),
  c('sh -c "git reset -q --hard"', DENY),
  c('timeout 5 git reset -q --hard', DENY),
  c('git reset --keep --hard', DENY),
]);

runCases('issue 9 A.4 unambiguous long-option abbreviations and =value forms', SETUP, [
  c('git reset --ha', DENY),
  c('git reset --har', DENY),
  c('git reset --hard=HEAD', DENY),
  c('git reset --ha=HEAD~1', DENY),
  c('git reset -q --har HEAD', DENY),
  c('rm --rec --forc x', DENY),
  c('rm --recursive --force x', DENY),
  c('rm --recursive=yes -f x', DENY, { note: 'a value on a flag is still the flag' }),
  c('git clean --force -dx', DENY),
  c('git clean --forc -d -x', DENY),
  c('git branch --delete --force topic', DENY),
  c('chmod --recursive 700 .', DENY),
  c('chmod --recur 700 .', DENY),
]);

runCases('issue 9 A.4 rm -rf:* in every bundling and order', SETUP, [
  c('rm -fr build', DENY),
  c('rm -Rf build', DENY),
  c('rm -fR build', DENY),
  c('rm -r -f build', DENY),
  c('rm -f -r build', DENY),
  c('rm -R -f build', DENY),
  c('rm -rfv build', DENY),
  c('rm -vrf build', DENY),
  c('rm -r build -f', DENY, { note: 'GNU rm permutes options' }),
  c('rm --force -r build', DENY),
  c('rm -i --recursive -f build', DENY),
  c('/bin/rm -r -f build', DENY),
  c('sudo rm -f -r /tmp/x', DENY),
  c('xargs rm -f -r', DENY),
]);

runCases('issue 9 A.4 subcommand aliases: docker, kubectl, npm, helm', SETUP, [
  c('docker container rm api', DENY),
  c('docker container remove api', DENY),
  c('docker remove api', DENY),
  c('docker rm -f api', DENY),
  c('docker --context=x rm api', DENY),
  c('docker -c x rm api', DENY),
  c('docker -c x container rm -f api', DENY),
  c('docker --context prod container remove api', DENY),
  c('docker image rm nginx', DENY),
  c('docker image remove nginx', DENY),
  c('podman container rm api', auto('permissions_allow'), { note: 'only docker rm is denied' }),
  c('kubectl delete po api', DENY),
  c('kubectl delete pods api', DENY),
  c('kubectl delete pod/api', DENY),
  c('kubectl delete -n prod pod api', DENY),
  c('kubectl --context=prod -n x delete pods/api', DENY),
  c('npm r left-pad', DENY),
  c('npm rm left-pad', DENY),
  c('npm un left-pad', DENY),
  c('npm remove left-pad', DENY),
  c('npm unlink left-pad', DENY),
  c('npm --prefix x uninstall y', DENY),
  c('npm x cowsay', DENY, { note: 'x is npm exec' }),
  c('helm del api', DENY),
  c('helm delete api', DENY),
  c('helm un api', DENY),
  c('helm --kube-context prod del api', DENY),
]);

runCases('issue 9 A.4 ask patterns read the same way', SETUP, [
  c('docker exec api ls', ask('permissions_ask'), { note: 'ask docker container exec holds for docker exec' }),
  c('docker container exec api ls', ask('permissions_ask')),
  c('npm i left-pad', ask('permissions_ask')),
  c('npm add left-pad', ask('permissions_ask')),
  c('npm isntall left-pad', ask('permissions_ask')),
]);

runCases('issue 9 A.4 an ambiguous abbreviation asks, never auto-approves nor denies', SETUP, [
  c('npm ex cowsay', ask('permissions_deny_uncertain'), { note: 'ex: exec, explain, explore' }),
  c('npm e cowsay', ask(), { note: 'e: edit, exec, explain, explore' }),
  c('npm exe cowsay', DENY, { note: 'exe: only exec' }),
]);

runCases('issue 9 A.4 the normal form does not deny the harmless forms', SETUP, [
  c('git reset HEAD~1', auto('permissions_allow')),
  c('git reset --soft HEAD~1', auto('permissions_allow')),
  c('git reset -q', auto('permissions_allow')),
  c('git log -- reset --hard', auto('permissions_allow')),
  c('git commit -m reset --allow-empty', auto('permissions_allow')),
  c('git -C reset status', auto('permissions_allow')),
  c('rm -r build', auto('permissions_allow')),
  c('rm -f build', auto('permissions_allow')),
  c('rm -- -rf', auto('permissions_allow'), { note: 'after -- a word is a file name' }),
  c('docker ps', auto('permissions_allow')),
  c('docker container ls', auto('permissions_allow')),
  c('kubectl get pods', auto('permissions_allow')),
  c('npm test', auto('permissions_allow')),
  c('npm run build', auto('permissions_allow')),
  c('chmod 644 a.txt', auto('permissions_allow')),
  c('git branch -d topic', auto('permissions_allow')),
]);

const NPM_ALLOW = { ...MANUAL, label: 'npm allowed', permissions: { allow: ['Terminal(npm)'], deny: [], ask: [] } };
const EFFECT = ask('ceiling_external_effect');

runCases('RN-418/RN-689 npm registry changes always need a human', NPM_ALLOW, [
  c('npm publish', EFFECT),
  c('npm pub', EFFECT),
  c('npm publ', EFFECT),
  c('npm publis --tag next', EFFECT),
  c('npm unpublish left-pad@1.0.0', EFFECT),
  c('npm unpub left-pad', EFFECT),
  c('npm dist-tag add left-pad@1.0.0 latest', EFFECT),
  c('npm dist-tags rm left-pad beta', EFFECT),
  c('npm distTag add a@1 b', EFFECT, { note: 'npm reads camelCase as kebab-case' }),
  c('npm deprecate left-pad "gone"', EFFECT),
  c('npm owner add bob left-pad', EFFECT),
  c('npm author add bob left-pad', EFFECT),
  c('npm access set status=public', EFFECT),
  c('npm token create', EFFECT),
  c('npm token revoke abc', EFFECT),
  c('npm --registry https://r.example publish', EFFECT),
  c('npm p', EFFECT, { note: 'p may be publish: fail closed' }),
  c('npm u x', EFFECT, { note: 'u may be unpublish' }),
  c('npm test', auto('permissions_allow')),
  c('npm token list', auto('permissions_allow')),
  c('npm pack', auto('permissions_allow')),
  c('npm un left-pad', auto('permissions_allow'), { note: 'un is uninstall, exactly' }),
]);

describe('issue 9 A.4 the ceilings refuse "Always allow" for every npm registry change', () => {
  for (const command of ['npm pub', 'npm unpublish x', 'npm dist-tag add a@1 b', 'npm owner add b x', 'gh pr new']) {
    it(`RN-418 ${command} writes nothing`, () => {
      expect(patternsForAction('terminal', { command })).toMatchObject({ kind: 'refused', reason: 'external_effect' });
    });
  }
});

describe('issue 9 A.4 properties', () => {
  const decideCommand = (command: string) => decide(terminalInput(SETUP, { command })).policy;
  it('RN-418 any order and bundling of -r/-R/--recursive with -f/--force (plus noise flags) is denied by rm -rf:*', () => {
    const recursive = fc.constantFrom('-r', '-R', '--recursive', '--rec', '--recursive=1');
    const force = fc.constantFrom('-f', '--force', '--fo', '--force=yes');
    const noise = fc.array(fc.constantFrom('-v', '-i', '--one-file-system', '-I', '--verbose'), { maxLength: 3 });
    fc.assert(
      fc.property(recursive, force, noise, fc.boolean(), fc.boolean(), (r, f, extra, swap, bundle) => {
        const flags = bundle && r.length === 2 && f.length === 2 ? [`-${r[1]}${f[1]}`] : swap ? [f, r] : [r, f];
        const words = ['rm', ...extra, ...flags, 'build'];
        const command = words.join(' ');
        expect(decideCommand(command), command).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });
  it('RN-418 git reset --hard among any other reset options, in any order, is denied', () => {
    const others = fc.array(fc.constantFrom('-q', '--quiet', '--merge', '--keep', '--no-refresh', 'HEAD~1'), {
      maxLength: 4,
    });
    const hard = fc.constantFrom('--hard', '--har', '--ha', '--hard=HEAD');
    fc.assert(
      fc.property(others, hard, fc.nat(), (rest, h, at) => {
        const words: string[] = [...rest];
        words.splice(at % (words.length + 1), 0, h);
        const command = ['git', 'reset', ...words].join(' ');
        expect(decideCommand(command), command).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });
  it('RN-418 docker rm in every spelling, past any global options, is denied', () => {
    const globals = fc.array(fc.constantFrom('--context=x', '-c x', '--context x', '-D', '-H unix:///s', '--tls'), {
      maxLength: 3,
    });
    const verb = fc.constantFrom('rm', 'remove', 'container rm', 'container remove');
    fc.assert(
      fc.property(globals, verb, fc.boolean(), (g, v, force) => {
        const command = ['docker', ...g, v, ...(force ? ['-f'] : []), 'api'].join(' ');
        expect(decideCommand(command), command).toBe('deny');
      }),
      { numRuns: 200 },
    );
  });
});

// glab's aliases (found by m5): `glab mr new` is `glab mr create` (an RN-418 external effect), and
// was auto-approved in auto mode.
runCases('RN-418 glab mr new is glab mr create', AUTO, [
  c('glab mr new', ask('ceiling_external_effect')),
  c('glab mr new --fill --yes', ask('ceiling_external_effect')),
  c('glab mr new -t x -d y', ask('ceiling_external_effect')),
  c('glab -R o/r mr new', ask('ceiling_external_effect')),
  c('glab mr create --fill', ask('ceiling_external_effect')),
  c('glab mr ls', auto()),
]);
