// Mutation testing of always-allow.ts (issue 9 "Tests"; RN-675, issue 9 A.6): each wrapper,
// interpreter and two-word runner of the tables, with a command a human would click "Always allow"
// on. Per row: the click writes the whole fragment (and says so in keptWhole), and the bare verb
// writes nothing, because its pattern would allow every command of that verb (`Terminal(gdb)`
// allows `gdb -batch -ex 'shell id'`).
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';

const plan = (command: string) => patternsForAction('terminal', { command });
const whole = (command: string) => ({
  kind: 'patterns',
  patterns: [`Terminal(${command})`],
  keptWhole: [`Terminal(${command})`],
});
const bareRefusal = (text: string) => ({
  kind: 'refused',
  reason: 'unsafe_command',
  message: `"${text}" alone as a pattern would allow every ${text} command: approve this instance; "Always allow" writes nothing.`,
});

// [verb, a command with that verb]: shells, wrappers that run their arguments, interpreters.
const VERBS: Array<[verb: string, clicked: string]> = [
  ['sh', 'sh ./build.sh'],
  ['bash', 'bash scripts/ci.sh'],
  ['zsh', 'zsh ./setup.zsh'],
  ['dash', 'dash ./build.sh'],
  ['ksh', 'ksh ./build.ksh'],
  ['ash', 'ash ./build.sh'],
  ['mksh', 'mksh ./build.sh'],
  ['fish', 'fish ./setup.fish'],
  ['csh', 'csh ./setup.csh'],
  ['tcsh', 'tcsh ./setup.csh'],
  ['busybox', 'busybox ls -l'],
  ['toybox', 'toybox ls -l'],
  ['pwsh', 'pwsh ./build.ps1'],
  ['powershell', 'powershell ./build.ps1'],
  ['valgrind', 'valgrind ./app'],
  ['sed', 'sed -n 1,5p README.md'],
  ['tar', 'tar -tf dist.tar'],
  ['rsync', 'rsync -a src/ build/'],
  ['env', 'env CI=1 make test'],
  ['timeout', 'timeout 60 make test'],
  ['nice', 'nice -n 5 make test'],
  ['nohup', 'nohup make serve'],
  ['xargs', 'xargs echo'],
  ['exec', 'exec make test'],
  ['command', 'command make test'],
  ['builtin', 'builtin echo hi'],
  ['eval', 'eval make test'],
  ['time', 'time make test'],
  ['watch', 'watch -n 5 make test'],
  ['stdbuf', 'stdbuf -oL make test'],
  ['ionice', 'ionice -c 3 make test'],
  ['chrt', 'chrt -i 0 make test'],
  ['taskset', 'taskset -c 0 make test'],
  ['setsid', 'setsid make serve'],
  ['flock', 'flock /tmp/lock make test'],
  ['script', 'script -q out.log'],
  ['unshare', 'unshare -n make test'],
  ['nsenter', 'nsenter -t 1 -m ls'],
  ['chroot', 'chroot ./root ls'],
  ['strace', 'strace -c ./app'],
  ['ltrace', 'ltrace ./app'],
  ['gdb', 'gdb ./app'],
  ['deno', 'deno run x.ts'],
  ['bun', 'bun x.ts'],
  ['bunx', 'bunx tsc'],
  ['npx', 'npx tsc --noEmit'],
  ['pnpx', 'pnpx tsc'],
  ['tsx', 'tsx ./tool.ts'],
  ['ts-node', 'ts-node ./tool.ts'],
  ['lua', 'lua ./x.lua'],
  ['luajit', 'luajit ./x.lua'],
  ['Rscript', 'Rscript ./x.R'],
  ['osascript', 'osascript ./x.scpt'],
  ['awk', 'awk -F, data.csv'],
  ['gawk', 'gawk -F, data.csv'],
  ['mawk', 'mawk -F, data.csv'],
  ['nawk', 'nawk -F, data.csv'],
  ['tclsh', 'tclsh ./x.tcl'],
  ['wish', 'wish ./x.tcl'],
  ['expect', 'expect ./x.exp'],
  ['jshell', 'jshell ./x.jsh'],
  ['groovy', 'groovy ./x.groovy'],
  ['scala', 'scala ./x.scala'],
  ['elixir', 'elixir ./x.exs'],
  ['erl', 'erl -noshell -s init stop'],
  ['escript', 'escript ./x.erl'],
  ['julia', 'julia ./x.jl'],
  ['swift', 'swift ./x.swift'],
  ['cross-env', 'cross-env CI=1 jest'],
  ['dotenv', 'dotenv -e .env.test jest'],
  ['uvx', 'uvx ruff check'],
  ['xvfb-run', 'xvfb-run npm test'],
  ['fakeroot', 'fakeroot make install'],
  ['firejail', 'firejail make test'],
  ['unbuffer', 'unbuffer make test'],
  ['systemd-run', 'systemd-run --user make test'],
  ['runuser', 'runuser -u app make test'],
  ['faketime', 'faketime 2020-01-01 make test'],
  ['torsocks', 'torsocks make test'],
  ['proxychains', 'proxychains make test'],
  ['proxychains4', 'proxychains4 make test'],
  ['hyperfine', 'hyperfine ./bench.sh'],
  ['nodemon', 'nodemon ./server.js'],
  ['entr', 'entr make test'],
  ['numactl', 'numactl -N 0 make test'],
  ['prlimit', 'prlimit -n1024 make test'],
  ['dbus-run-session', 'dbus-run-session make test'],
  ['tini', 'tini make serve'],
  ['dumb-init', 'dumb-init make serve'],
  ['sqlite3', 'sqlite3 db.sqlite .tables'],
  ['kill', 'kill %1'],
  ['find', 'find . -name x'],
];

describe('RN-675 issue 9 A.6: wrapper and interpreter verbs are written whole, never alone', () => {
  it.each(VERBS)('RN-675 bare %s writes nothing; %s is written whole', (verb, clicked) => {
    expect(plan(verb)).toEqual(bareRefusal(verb));
    expect(plan(clicked)).toEqual(whole(clicked));
  });
  // Bare parallel runs each line it reads as a command: refused as unsafe before any unit is made.
  it('RN-675 bare parallel writes nothing (its input lines are commands); parallel echo ::: a b is written whole', () => {
    expect(plan('parallel')).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
    expect(plan('parallel echo ::: a b')).toEqual(whole('parallel echo ::: a b'));
  });
  it.each(['/bin/sh', '/usr/bin/env', './node_modules/.bin/tsx', '/usr/local/bin/gdb'])(
    'RN-675 the verb is read by its basename: bare %s writes nothing',
    (verb) => {
      expect(plan(verb)).toEqual(bareRefusal(verb));
      expect(plan(`${verb} ./x`)).toEqual(whole(`${verb} ./x`));
    },
  );
});

// Interpreters are matched by prefix: every python3.x, pypy3, ruby3.x, perl5.x, php8.x, node20.
describe('RN-675 issue 9 A.6: versioned interpreters are written whole', () => {
  it.each([
    ['python', 'python manage.py test'],
    ['python3', 'python3 -m pytest'],
    ['python3.12', 'python3.12 x.py'],
    ['/usr/bin/python3.11', '/usr/bin/python3.11 x.py'],
    ['pypy3', 'pypy3 bench.py'],
    ['ruby', 'ruby x.rb'],
    ['ruby3.2', 'ruby3.2 x.rb'],
    ['perl', 'perl x.pl'],
    ['perl5.36', 'perl5.36 x.pl'],
    ['php', 'php artisan migrate:status'],
    ['php8.2', 'php8.2 artisan migrate:status'],
    ['node', 'node ./tool.js'],
    ['node20', 'node20 ./tool.js'],
    ['nodejs', 'nodejs ./tool.js'],
  ])('RN-675 bare %s writes nothing; %s is written whole', (verb, clicked) => {
    expect(plan(verb)).toEqual(bareRefusal(verb));
    expect(plan(clicked)).toEqual(whole(clicked));
  });
  it.each([
    ['pytest tests', 'Terminal(pytest tests)'],
    ['rubocop app', 'Terminal(rubocop app)'],
  ])('RN-675 a verb that only contains an interpreter name keeps its unit: %s -> %s', (clicked, pattern) => {
    expect(plan(clicked)).toEqual({ kind: 'patterns', patterns: [pattern] });
  });
});

// Two-word runners: the pair runs whatever follows it (a package, a script, an image).
const PAIRS: Array<[pair: string, clicked: string]> = [
  ['npm exec', 'npm exec vitest'],
  ['npm x', 'npm x vitest'],
  ['pnpm exec', 'pnpm exec vitest'],
  ['pnpm dlx', 'pnpm dlx create-vite app'],
  ['yarn exec', 'yarn exec vitest'],
  ['yarn dlx', 'yarn dlx create-vite app'],
  ['bun x', 'bun x vitest'],
  ['bun run', 'bun run dev'],
  ['bun create', 'bun create vite app'],
  ['uv run', 'uv run pytest'],
  ['poetry run', 'poetry run pytest'],
  ['pipenv run', 'pipenv run pytest'],
  ['cargo run', 'cargo run --release'],
  ['go run', 'go run ./cmd/server'],
  ['bundle exec', 'bundle exec rspec'],
  ['pipx run', 'pipx run black .'],
  ['yarn node', 'yarn node x.js'],
  ['npm init', 'npm init vite'],
  ['npm create', 'npm create vite'],
  ['yarn create', 'yarn create vite'],
  ['pnpm create', 'pnpm create vite'],
  ['hatch run', 'hatch run test'],
  ['pdm run', 'pdm run test'],
  ['rye run', 'rye run test'],
  ['conda run', 'conda run -n x pytest'],
  ['mamba run', 'mamba run -n x pytest'],
  ['micromamba run', 'micromamba run -n x pytest'],
  ['nix run', 'nix run ./flake'],
  ['nix develop', 'nix develop -c make'],
  ['nix shell', 'nix shell ./env'],
  ['mise exec', 'mise exec -- make'],
  ['mise x', 'mise x -- make'],
  ['asdf exec', 'asdf exec rake'],
  ['rbenv exec', 'rbenv exec rake'],
  ['pyenv exec', 'pyenv exec pytest'],
  ['direnv exec', 'direnv exec . make'],
  ['perf stat', 'perf stat make'],
  ['perf record', 'perf record ./app'],
  ['perf trace', 'perf trace ./app'],
  ['npm run', 'npm run build'],
  ['npm run-script', 'npm run-script build'],
  ['pnpm run', 'pnpm run build'],
  ['yarn run', 'yarn run build'],
  ['docker run', 'docker run --rm alpine true'],
  ['docker exec', 'docker exec api ls'],
  ['podman run', 'podman run --rm alpine true'],
  ['podman exec', 'podman exec api ls'],
];

describe('RN-675 issue 9 A.6: two-word runners are written whole, never alone', () => {
  it.each(PAIRS)('RN-675 bare %s writes nothing; %s is written whole', (pair, clicked) => {
    expect(plan(pair)).toEqual(bareRefusal(pair));
    expect(plan(clicked)).toEqual(whole(clicked));
  });
  it('RN-675 the pair is read with the basename of its first word', () => {
    expect(plan('/usr/bin/npm exec')).toEqual(bareRefusal('/usr/bin/npm exec'));
    expect(plan('/usr/bin/npm exec vitest')).toEqual(whole('/usr/bin/npm exec vitest'));
  });
  it.each([
    ['npm test', 'Terminal(npm test)'],
    ['pnpm install', 'Terminal(pnpm install)'],
    ['cargo build --release', 'Terminal(cargo build)'],
    ['go build ./...', 'Terminal(go build)'],
  ])('RN-675 another subcommand of the same CLI keeps its unit: %s -> %s', (clicked, pattern) => {
    expect(plan(clicked)).toEqual({ kind: 'patterns', patterns: [pattern] });
  });
});

describe('RN-675 issue 9 A.6: make is safe with a target, never bare', () => {
  it.each(['make', 'gmake', '/usr/bin/make'])('RN-675 bare %s writes nothing', (verb) => {
    expect(plan(verb)).toEqual(bareRefusal(verb));
  });
  it.each([
    ['make build', 'Terminal(make build)'],
    ['gmake test', 'Terminal(gmake test)'],
    ['make -j4', 'Terminal(make -j4)'],
  ])('RN-675 %s -> %s (a unit, not kept whole)', (clicked, pattern) => {
    expect(plan(clicked)).toEqual({ kind: 'patterns', patterns: [pattern] });
  });
  it('RN-675 a bare make with a redirection is still bare', () => {
    expect(plan('make > build.log')).toEqual(bareRefusal('make'));
  });
});

describe('RN-642 / RN-418 / RN-689 refusals say why, and write nothing', () => {
  const refused = (reason: string, message: string) => ({ kind: 'refused', reason, message });
  it.each([
    ['bogus', {}, refused('unsafe_command', 'Unknown action type bogus: nothing was written.')],
    [
      'git_push',
      {},
      refused(
        'teto_do_sempre_permitir',
        'git_push is always decided one instance at a time: "Always allow" writes nothing (teto_do_sempre_permitir).',
      ),
    ],
    ['terminal', undefined, refused('unsafe_command', 'The action has no command: nothing was written.')],
    ['terminal', {}, refused('unsafe_command', 'The action has no command: nothing was written.')],
    ['terminal', { command: 42 }, refused('unsafe_command', 'The action has no command: nothing was written.')],
    ['terminal', { command: ' \t ' }, refused('unsafe_command', 'The action has no command: nothing was written.')],
  ])('%s %j -> refused', (type, payload, expected) => {
    expect(patternsForAction(type as never, payload as never)).toEqual(expected);
  });
  it('RN-642 a command of MAX_COMMAND_LENGTH characters is planned; one more character is refused', () => {
    const atLimit = `echo ${'a'.repeat(16_384 - 5)}`;
    expect(plan(atLimit)).toEqual({ kind: 'patterns', patterns: [`Terminal(${atLimit})`] });
    expect(plan(`${atLimit}a`)).toEqual(
      refused(
        'unsafe_command',
        'The command is longer than 16384 characters: approve this instance; "Always allow" writes nothing.',
      ),
    );
  });
  it.each([
    [
      'echo $(id)',
      'unsafe_command',
      'The command contains command substitution $(…): approve this instance; "Always allow" writes nothing.',
    ],
    [
      'git -c core.pager=less log',
      'unsafe_command',
      'git -c changes what git runs: approve this instance; "Always allow" writes nothing.',
    ],
    [
      'echo x > permissions.json',
      'unsafe_command',
      'The command writes the protected file permissions.json: "Always allow" writes nothing.',
    ],
    [
      'sudo ls',
      'privileged',
      'sudo is a privileged command: approve this instance; "Always allow" writes nothing (RN-418).',
    ],
    [
      'git push origin main',
      'external_effect',
      'git push has an external effect: approve this instance; "Always allow" writes nothing (RN-418).',
    ],
    [
      'git config alias.st status',
      'unsafe_command',
      'git config alias.st changes what git runs: approve this instance; "Always allow" writes nothing.',
    ],
  ])('RN-642 %s -> %s: %s', (command, reason, message) => {
    expect(plan(command)).toEqual(refused(reason, message));
  });
});

// RN-675: the second word is a subcommand (part of the unit) only when it reads as a name,
// `[A-Za-z][A-Za-z0-9._:-]*`; otherwise (a path, a number, a pattern) the unit is the verb.
describe('RN-675 the unit: verb + subcommand word, or the verb alone', () => {
  it.each([
    ['pytest Alpha x', 'Terminal(pytest Alpha)'],
    ['pytest Zeta x', 'Terminal(pytest Zeta)'],
    ['pytest alpha x', 'Terminal(pytest alpha)'],
    ['pytest zeta x', 'Terminal(pytest zeta)'],
    ['pytest a0 x', 'Terminal(pytest a0)'],
    ['pytest a9 x', 'Terminal(pytest a9)'],
    ['pytest a.b_c:d-e x', 'Terminal(pytest a.b_c:d-e)'],
    ['pytest 0a x', 'Terminal(pytest)'],
    ['pytest @a x', 'Terminal(pytest)'],
    ['pytest [a x', 'Terminal(pytest)'],
    ['pytest a/b x', 'Terminal(pytest)'],
    ['pytest a@b x', 'Terminal(pytest)'],
    ['pytest a= x', 'Terminal(pytest)'],
    ['pytest a, x', 'Terminal(pytest)'],
    ["pytest '' x", 'Terminal(pytest)'],
    ['pytest a~ x', 'Terminal(pytest)'],
    ['pytest ~a x', 'Terminal(pytest)'],
    ['cat src/x.ts', 'Terminal(cat)'],
  ])('RN-675 %s -> %s', (command, pattern) => {
    expect(plan(command)).toEqual({ kind: 'patterns', patterns: [pattern] });
  });
  it.each([
    ['> build.log', []],
    ['git', []],
    ['gh pr', []],
    ['gh pr > prs.txt', []],
    ['gh pr list', ['Terminal(gh pr list)']],
    ['git 1x', ['Terminal(git 1x)']],
    ['git branch > branches.txt', ['Terminal(git branch > branches.txt)']],
    ['sh x.sh && sh x.sh', ['Terminal(sh x.sh)']],
  ])('RN-675 %s -> %j', (command, patterns) => {
    const p = plan(command);
    expect(p.kind === 'patterns' && p.patterns).toEqual(patterns);
  });
});
