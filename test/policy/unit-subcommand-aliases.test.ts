// The other spellings of a CLI's subcommands (subcommand-aliases.ts, issue 9 A.4), checked
// against an independent source where this machine has one: npm's own command table
// (lib/utils/cmd-list.js of the npm on PATH) for npmCommand, and the `Aliases:` lines of
// docker 28.2's `--help` for the docker rows. A deny or a ceiling written with one spelling holds
// for the others only when the engine reads every spelling as the same words.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPositional, npmCommand, subcommandReadings } from '../../src/policy/subcommand-aliases.ts';
import type { PathReading } from '../../src/policy/subcommand-aliases.ts';

interface NpmCmdList {
  commands: string[];
  aliases: Record<string, string>;
  deref: (c: string) => string | undefined;
}

/** npm's cmd-list.js and its `abbrev`, found through the npm on PATH; null when there is none. */
function installedNpm(): { list: NpmCmdList; abbrev: (names: string[]) => Record<string, string> } | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const bin = join(dir, 'npm');
    if (!existsSync(bin)) continue;
    const file = join(dirname(realpathSync(bin)), '..', 'lib', 'utils', 'cmd-list.js');
    if (!existsSync(file)) continue;
    const load = createRequire(file);
    return { list: load(file) as NpmCmdList, abbrev: load('abbrev') as (names: string[]) => Record<string, string> };
  }
  return null;
}

const npm = installedNpm();
// npm 11's alias `u` (update) is not in the engine's table on purpose: read as an abbreviation it
// may be uninstall, unpublish or update, so a deny of any of them still sees `npm u`.
const newer = (word: string, target: string | undefined): boolean => word === 'u' || target === undefined;

describe.skipIf(npm === null)('issue 9 A.4: npmCommand reads a word as the npm on this machine does', () => {
  const { list, abbrev } = npm!;
  const words = [...list.commands, ...Object.keys(list.aliases)];

  it('every npm command and alias is the command npm runs for it', () => {
    for (const word of words) {
      const target = list.deref(word);
      if (newer(word, target)) continue;
      expect(npmCommand(word), word).toEqual({ names: [target], certain: true });
    }
  });

  it('every abbreviation npm accepts is the command npm runs for it', () => {
    let checked = 0;
    for (const prefix of Object.keys(abbrev(words))) {
      const target = list.deref(prefix);
      if (newer(prefix, target)) continue;
      // The engine also knows npm 10's `hook` (gone in npm 11): `ho` may be hook or home, not certain.
      const got = npmCommand(prefix);
      expect(got.names, prefix).toContain(target);
      if (got.certain) expect(got.names, prefix).toEqual([target]);
      else
        expect(
          got.names.some((name) => name === 'hook'),
          prefix,
        ).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('camelCase is kebab-case, as npm reads it (`npm distTag` is `npm dist-tag`)', () => {
    for (const word of words.filter((w) => w.includes('-'))) {
      const camel = word.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const target = list.deref(camel);
      if (newer(camel, target)) continue;
      expect(npmCommand(camel), camel).toEqual({ names: [target], certain: true });
    }
  });
});

describe('issue 9 A.4: npmCommand, word by word', () => {
  const rows: readonly (readonly [string, string[], boolean])[] = [
    ['install', ['install'], true],
    ['i', ['install'], true],
    ['distTag', ['dist-tag'], true],
    ['pub', ['publish'], true],
    ['unp', ['unpublish'], true],
    ['upg', ['update'], true],
    ['rem', ['uninstall'], true],
    // Several names: npm refuses the word, a newer npm might not, so every candidate counts.
    ['st', ['stage', 'star', 'stars', 'start', 'stop'], false],
    ['p', ['pack', 'ping', 'pkg', 'prefix', 'profile', 'prune', 'publish'], false],
    ['install-c', ['install-ci-test', 'ci'], false],
    // Neither a command nor an abbreviation of one: the word itself.
    ['left-pad', ['left-pad'], true],
    ['', [''], true],
    ['-g', ['-g'], true],
    ['--global', ['--global'], true],
  ];
  for (const [word, names, certain] of rows) {
    it(`${JSON.stringify(word)} -> ${names.join(' | ')}${certain ? '' : ' (one of several)'}`, () => {
      expect(npmCommand(word)).toEqual({ names, certain });
    });
  }
});

const reading = (words: string[], consumed: number, certain = true): PathReading => ({ words, consumed, certain });

describe('issue 9 A.4: subcommandReadings, per CLI', () => {
  const rows: readonly (readonly [string, PathReading[]])[] = [
    // docker 28.2 --help, Aliases lines.
    ['docker container rm api', [reading(['rm'], 2)]],
    ['docker container remove api', [reading(['rm'], 2)]],
    ['docker container ls', [reading(['ps'], 2)]],
    ['docker container list', [reading(['ps'], 2)]],
    ['docker container ps', [reading(['ps'], 2)]],
    ['docker image rm x', [reading(['rmi'], 2)]],
    ['docker image remove x', [reading(['rmi'], 2)]],
    ['docker image ls', [reading(['images'], 2)]],
    ['docker image list', [reading(['images'], 2)]],
    ['docker volume remove v', [reading(['volume', 'rm'], 2)]],
    ['docker volume list', [reading(['volume', 'ls'], 2)]],
    ['docker network remove n', [reading(['network', 'rm'], 2)]],
    ['docker network list', [reading(['network', 'ls'], 2)]],
    ['docker container prune', [reading(['container', 'prune'], 2)]],
    ['docker container attach api', [reading(['attach'], 2)]],
    ['docker container exec api sh', [reading(['exec'], 2)]],
    ['docker container wait api', [reading(['wait'], 2)]],
    ['docker image build .', [reading(['build'], 2)]],
    ['docker image push x', [reading(['push'], 2)]],
    ['docker image tag a b', [reading(['tag'], 2)]],
    // `docker remove` is rm too (docker 28.2 runs it; `docker remove --help` prints rm's usage).
    ['docker remove api', [reading(['rm'], 1)]],
    ['docker rm api', []],
    ['docker container', []],
    ['docker volume rm v', []],
    ['podman container remove api', [reading(['rm'], 2)]],
    ['podman image ls', [reading(['images'], 2)]],
    // pnpm, yarn, helm and gh.
    ['pnpm rm x', [reading(['remove'], 1)]],
    ['pnpm un x', [reading(['remove'], 1)]],
    ['pnpm uninstall x', [reading(['remove'], 1)]],
    ['pnpm i', [reading(['install'], 1)]],
    ['pnpm up', [reading(['update'], 1)]],
    ['pnpm upgrade', [reading(['update'], 1)]],
    ['pnpm remove x', []],
    ['yarn rm x', [reading(['remove'], 1)]],
    ['helm un api', [reading(['uninstall'], 1)]],
    ['helm del api', [reading(['uninstall'], 1)]],
    ['helm delete api', [reading(['uninstall'], 1)]],
    ['helm ls', [reading(['list'], 1)]],
    ['gh pr new', [reading(['pr', 'create'], 2)]],
    ['gh issue new', [reading(['issue', 'create'], 2)]],
    ['gh release new v1', [reading(['release', 'create'], 2)]],
    ['gh repo new x', [reading(['repo', 'create'], 2)]],
    ['glab mr new', [reading(['mr', 'create'], 2)]],
    ['glab mr new --fill --yes', [reading(['mr', 'create'], 2)]],
    ['glab issue new -t x', [reading(['issue', 'create'], 2)]],
    ['glab mr ls', [reading(['mr', 'list'], 2)]],
    ['glab issue ls', [reading(['issue', 'list'], 2)]],
    ['gh pr ls', [reading(['pr', 'list'], 2)]],
    ['gh issue ls', [reading(['issue', 'list'], 2)]],
    ['gh release ls', [reading(['release', 'list'], 2)]],
    ['gh repo ls', [reading(['repo', 'list'], 2)]],
    ['gh pr view 1', []],
    // kubectl's spellings are its resource names (canonicalPositional), not its verbs.
    ['kubectl get po', []],
    ['git rm x', []],
    // npm through npmCommand.
    ['npm r left-pad', [reading(['uninstall'], 1)]],
    ['npm install', []],
    ['npm left-pad', []],
    ['npm st', ['stage', 'star', 'stars', 'start', 'stop'].map((name) => reading([name], 1, false))],
  ];
  for (const [command, expected] of rows) {
    it(`${command} -> ${expected.map((r) => `${r.words.join(' ')} (${r.consumed} words)`).join(', ') || 'none'}`, () => {
      const argv = command.split(' ');
      expect(subcommandReadings(argv[0]!, argv, 1)).toEqual(expected);
    });
  }

  it('at past the end, or at a later word', () => {
    expect(subcommandReadings('npm', ['npm'], 1)).toEqual([]);
    expect(subcommandReadings('docker', ['docker'], 1)).toEqual([]);
    expect(subcommandReadings('docker', ['docker', '--context', 'prod', 'container', 'rm', 'x'], 3)).toEqual([
      reading(['rm'], 2),
    ]);
  });
});

describe('issue 9 A.4: canonicalPositional reads kubectl resource names as one name', () => {
  const rows: readonly (readonly [string, string, string])[] = [
    ['kubectl', 'po', 'pod'],
    ['kubectl', 'pods', 'pod'],
    ['kubectl', 'PODS', 'pod'],
    ['kubectl', 'Svc', 'service'],
    ['kubectl', 'deploy', 'deployment'],
    ['kubectl', 'ns', 'namespace'],
    ['kubectl', 'cm', 'configmap'],
    ['kubectl', 'secrets', 'secret'],
    ['kubectl', 'rs', 'replicaset'],
    ['kubectl', 'sts', 'statefulset'],
    ['kubectl', 'ds', 'daemonset'],
    ['kubectl', 'pvc', 'persistentvolumeclaim'],
    ['kubectl', 'persistentvolumeclaims', 'persistentvolumeclaim'],
    ['kubectl', 'pv', 'persistentvolume'],
    ['kubectl', 'ing', 'ingress'],
    ['kubectl', 'jobs', 'job'],
    ['kubectl', 'cj', 'cronjob'],
    ['kubectl', 'no', 'node'],
    ['kubectl', 'sa', 'serviceaccount'],
    ['kubectl', 'serviceaccounts', 'serviceaccount'],
    ['kubectl', 'crd', 'customresourcedefinition'],
    ['kubectl', 'customresourcedefinitions', 'customresourcedefinition'],
    ['kubectl', 'api', 'api'],
    ['kubectl', 'Api', 'Api'],
    ['docker', 'po', 'po'],
    ['helm', 'svc', 'svc'],
  ];
  for (const [cli, word, expected] of rows) {
    it(`${cli} ${word} -> ${expected}`, () => {
      expect(canonicalPositional(cli, word)).toBe(expected);
    });
  }
});
