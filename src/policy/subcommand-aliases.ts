// The other spellings of a CLI's subcommands (issue 9 A.4): `docker container remove` is
// `docker rm`, `npm r` and `npm remove` are `npm uninstall`, `npm pub` is `npm publish` (npm
// resolves any unambiguous abbreviation), `helm del` is `helm uninstall`, `gh pr new` is
// `gh pr create`. Deny/ask matching and the external-effect ceilings read subcommands through
// these tables, so a pattern or a ceiling written with one spelling holds for all of them.

/**
 * npm's commands (npm 10 and 11.19, lib/utils/cmd-list.js): npm 11 added approve-scripts,
 * deny-scripts, install-scripts, stage and trust (so `npm tru` is `npm trust`) and dropped hook,
 * which stays: a word it abbreviates then has one more reading, never one less.
 */
const NPM_COMMANDS: readonly string[] = (
  'access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts deprecate diff ' +
  'dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search hook init install ' +
  'install-ci-test install-scripts install-test link ll login logout ls org outdated owner pack ping pkg prefix ' +
  'profile prune publish query rebuild repo restart root run sbom search set shrinkwrap stage star stars start ' +
  'stop team test token trust undeprecate uninstall unpublish unstar update version view whoami'
).split(' ');

/**
 * npm's aliases and accepted typos, to the command they run. Not npm 11's `u` (update): as an
 * abbreviation of uninstall, unpublish, update… it keeps every reading.
 */
const NPM_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    author: 'owner',
    home: 'docs',
    issues: 'bugs',
    info: 'view',
    show: 'view',
    find: 'search',
    add: 'install',
    unlink: 'uninstall',
    remove: 'uninstall',
    rm: 'uninstall',
    r: 'uninstall',
    un: 'uninstall',
    rb: 'rebuild',
    list: 'ls',
    ln: 'link',
    create: 'init',
    i: 'install',
    it: 'install-test',
    cit: 'install-ci-test',
    up: 'update',
    c: 'config',
    s: 'search',
    se: 'search',
    tst: 'test',
    t: 'test',
    ddp: 'dedupe',
    v: 'view',
    'run-script': 'run',
    'clean-install': 'ci',
    'clean-install-test': 'install-ci-test',
    x: 'exec',
    why: 'explain',
    la: 'll',
    verison: 'version',
    ic: 'ci',
    innit: 'init',
    in: 'install',
    ins: 'install',
    inst: 'install',
    insta: 'install',
    instal: 'install',
    isnt: 'install',
    isnta: 'install',
    isntal: 'install',
    isntall: 'install',
    'install-clean': 'ci',
    'isntall-clean': 'ci',
    hlep: 'help',
    'dist-tags': 'dist-tag',
    upgrade: 'update',
    udpate: 'update',
    rum: 'run',
    sit: 'install-ci-test',
    urn: 'run',
    ogr: 'org',
    'add-user': 'adduser',
  }),
);

const NPM_NAMES: ReadonlySet<string> = new Set(NPM_COMMANDS);

/** An npm command or one of its aliases, spelled out (pnpm hands some of them to npm). */
export function isNpmCommand(word: string): boolean {
  return NPM_NAMES.has(word) || NPM_ALIASES.has(word);
}

/**
 * What npm runs for a subcommand word: the command itself, its alias's target, or what an
 * abbreviation may stand for. `certain` is false when the word is an abbreviation of several
 * names: npm refuses it, but a newer npm with fewer names might not, so every candidate counts.
 */
export function npmCommand(word: string): { names: string[]; certain: boolean } {
  // npm reads camelCase as kebab-case: `npm distTag` is `npm dist-tag`.
  let w = word;
  if (/[A-Z]/.test(w)) w = w.replace(/[A-Z]/g, (m) => '-' + m.toLowerCase());
  if (NPM_NAMES.has(w)) return { names: [w], certain: true };
  const alias = NPM_ALIASES.get(w);
  if (alias !== undefined) return { names: [alias], certain: true };
  // An option (`-g`) abbreviates no name and falls through to itself below; '' abbreviates them all.
  if (w === '') return { names: [word], certain: true };
  const names = new Set<string>();
  for (const name of NPM_COMMANDS) if (name.startsWith(w)) names.add(name);
  for (const [name, target] of NPM_ALIASES) if (name.startsWith(w)) names.add(target);
  if (names.size === 0) return { names: [word], certain: true };
  return { names: [...names], certain: names.size === 1 };
}

/** Two-word paths with another spelling, per CLI (`container remove` -> `rm`). */
type PathAliases = ReadonlyMap<string, readonly string[]>;

const pathAliases = (entries: Record<string, string>): PathAliases =>
  new Map(Object.entries(entries).map(([from, to]) => [from, to.split(' ')]));

const CONTAINER_VERBS =
  'attach commit cp create diff exec export inspect kill logs pause port rename restart rm run start stats stop top unpause update wait';
const IMAGE_VERBS = 'build history import inspect load pull push save tag';

function dockerAliases(): PathAliases {
  const table: Record<string, string> = {
    remove: 'rm',
    'container remove': 'rm',
    'container ls': 'ps',
    'container list': 'ps',
    'container ps': 'ps',
    'image rm': 'rmi',
    'image remove': 'rmi',
    'image ls': 'images',
    'image list': 'images',
    'volume remove': 'volume rm',
    'volume list': 'volume ls',
    'network remove': 'network rm',
    'network list': 'network ls',
    'container prune': 'container prune',
  };
  for (const verb of CONTAINER_VERBS.split(' ')) table[`container ${verb}`] = verb;
  for (const verb of IMAGE_VERBS.split(' ')) table[`image ${verb}`] = verb;
  return pathAliases(table);
}

const DOCKER = dockerAliases();

const PATH_ALIASES: ReadonlyMap<string, PathAliases> = new Map([
  ['docker', DOCKER],
  ['podman', DOCKER],
  [
    'pnpm',
    pathAliases({ rm: 'remove', un: 'remove', uninstall: 'remove', i: 'install', up: 'update', upgrade: 'update' }),
  ],
  ['yarn', pathAliases({ rm: 'remove' })],
  ['helm', pathAliases({ un: 'uninstall', del: 'uninstall', delete: 'uninstall', ls: 'list' })],
  [
    'gh',
    pathAliases({
      'pr new': 'pr create',
      'issue new': 'issue create',
      'release new': 'release create',
      'repo new': 'repo create',
      'pr ls': 'pr list',
      'issue ls': 'issue list',
      'release ls': 'release list',
      'repo ls': 'repo list',
    }),
  ],
  // glab's own aliases (glab mr create --help: "Aliases: new"; glab issue create: "Aliases: new").
  [
    'glab',
    pathAliases({ 'mr new': 'mr create', 'issue new': 'issue create', 'mr ls': 'mr list', 'issue ls': 'issue list' }),
  ],
]);

/** kubectl's short and plural resource names, to one name (`po`, `pods` -> `pod`). */
const KUBECTL_RESOURCES: ReadonlyMap<string, string> = new Map(
  (
    'po:pod pods:pod svc:service services:service deploy:deployment deployments:deployment ns:namespace ' +
    'namespaces:namespace cm:configmap configmaps:configmap secrets:secret rs:replicaset replicasets:replicaset ' +
    'sts:statefulset statefulsets:statefulset ds:daemonset daemonsets:daemonset pvc:persistentvolumeclaim ' +
    'persistentvolumeclaims:persistentvolumeclaim pv:persistentvolume persistentvolumes:persistentvolume ' +
    'ing:ingress ingresses:ingress jobs:job cj:cronjob cronjobs:cronjob no:node nodes:node sa:serviceaccount ' +
    'serviceaccounts:serviceaccount crd:customresourcedefinition crds:customresourcedefinition ' +
    'customresourcedefinitions:customresourcedefinition'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** One reading of the words that start a CLI's subcommand: the canonical words and how many were read. */
export interface PathReading {
  words: string[];
  consumed: number;
  /** False for a reading that is one of several (an ambiguous abbreviation). */
  certain: boolean;
}

/**
 * The readings of the subcommand words at argv[at] (argv[0]'s basename is `cli`): none when the
 * CLI has no other spellings or the words are not one of them.
 */
export function subcommandReadings(cli: string, argv: readonly string[], at: number): PathReading[] {
  const first = argv[at];
  if (first === undefined) return [];
  if (cli === 'npm') {
    const { names, certain } = npmCommand(first);
    if (names.length === 1 && names[0] === first) return [];
    return names.map((name) => ({ words: [name], consumed: 1, certain }));
  }
  const table = PATH_ALIASES.get(cli);
  if (table === undefined) return [];
  const second = argv[at + 1];
  const two = second === undefined ? undefined : table.get(`${first} ${second}`);
  if (two !== undefined) return [{ words: [...two], consumed: 2, certain: true }];
  const one = table.get(first);
  return one === undefined ? [] : [{ words: [...one], consumed: 1, certain: true }];
}

/** A positional word as kubectl reads it: a resource name to its one spelling. */
export function canonicalPositional(cli: string, word: string): string {
  if (cli !== 'kubectl') return word;
  return KUBECTL_RESOURCES.get(word.toLowerCase()) ?? word;
}
