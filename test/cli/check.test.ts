// `brabo check` end to end: spawns the real ./bin/brabo (which sources scripts/node-env.sh) and
// reads what a person or a program would read.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BRABO = resolve(import.meta.dirname, '../../bin/brabo');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  peakRssKb: number;
}

/** Runs bin/brabo; `stdin` may be a string or a producer writing into the child's stdin. */
function brabo(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string | ((w: NodeJS.WritableStream) => Promise<void>) } = {},
): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(BRABO, args, {
      cwd: opts.cwd ?? process.cwd(),
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peakRssKb = 0;
    // bin/brabo execs node, so the pid is node's: sample its resident set while it runs.
    const sampler = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const hwm = /VmHWM:\s+(\d+)/.exec(status);
        if (hwm) peakRssKb = Math.max(peakRssKb, Number(hwm[1]));
      } catch {
        // already gone
      }
    }, 25);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      resolvePromise({ code, stdout, stderr, peakRssKb });
    });
    child.stdin.on('error', () => {}); // the child may exit before reading everything
    if (typeof opts.stdin === 'function') {
      opts.stdin(child.stdin).then(() => child.stdin.end(), reject);
    } else {
      child.stdin.end(opts.stdin ?? '');
    }
  });
}

let root: string;
let permissionsFile: string;
const PERMISSIONS = {
  allow: ['Terminal(ls)', 'Terminal(cat)', 'Terminal(pnpm test:*)', 'Terminal(grep)'],
  deny: ['Terminal(curl:*)'],
  ask: ['Terminal(git commit)'],
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'brabo-check-'));
  permissionsFile = join(root, 'custom-permissions.json');
  writeFileSync(permissionsFile, JSON.stringify(PERMISSIONS));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('brabo (dispatcher)', () => {
  it('--help lists the commands and exits 0', async () => {
    const r = await brabo(['--help']);
    expect(r.code).toBe(0);
    for (const name of ['check', 'serve', 'runner']) expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });
  it('an unknown command exits 2 and says which', async () => {
    const r = await brabo(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});

describe('brabo check (for a person)', () => {
  it('explains each fragment of a compound command in plain words', async () => {
    const r = await brabo([
      'check',
      '--permissions',
      permissionsFile,
      '--root',
      root,
      '--',
      'cd src && cat /etc/passwd',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^decision: +require_approval/m);
    expect(r.stdout).toMatch(/^rule: +ceiling_path_scope: /m);
    expect(r.stdout).toMatch(/1\. cd src +cd inside the project folder/);
    expect(r.stdout).toMatch(/2\. cat \/etc\/passwd +allowed by allow Terminal\(cat\)/);
    expect(r.stdout).toContain(`permissions: ${permissionsFile} (4 allow, 1 deny, 1 ask)`);
  });
  it('names the built-in pattern that denies, and exits 0 on a deny', async () => {
    const r = await brabo(['check', '--permissions', permissionsFile, '--root', root, '--', 'ls && sudo rm -rf /']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^decision: +deny/m);
    expect(r.stdout).toContain('builtin_deny');
    expect(r.stdout).toMatch(/2\. .*denied by the built-in pattern Terminal\(rm -rf \/\)/);
  });
  it('auto mode and the container floor are taken from the flags', async () => {
    const auto = await brabo([
      'check',
      '--permissions',
      permissionsFile,
      '--root',
      root,
      '--autonomy',
      'auto_approve:curinga',
      '--',
      'make build && ls',
    ]);
    expect(auto.stdout).toMatch(/^decision: +auto_approve/m);
    expect(auto.stdout).toMatch(/2\. ls +allowed by allow Terminal\(ls\)/);
    const floor = await brabo([
      'check',
      '--permissions',
      permissionsFile,
      '--root',
      root,
      '--container-running',
      '--',
      'git commit -m x',
    ]);
    expect(floor.stdout).toMatch(/^decision: +require_approval/m);
    expect(floor.stdout).toContain('permissions_ask');
    expect(floor.stdout).toMatch(/asks for approval: ask Terminal\(git commit\)/);
  });
  it('reads ROOT/permissions.json by default, and runs relative --cwd against the root', async () => {
    writeFileSync(
      join(root, 'permissions.json'),
      JSON.stringify({ allow: ['Terminal(pnpm test:*)'], deny: [], ask: [] }),
    );
    try {
      const r = await brabo(['check', '--cwd', 'packages/a', '--', 'pnpm test:unit'], { cwd: root });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^decision: +auto_approve/m);
      expect(r.stdout).toContain(`cwd:         ${join(root, 'packages/a')}`);
      expect(r.stdout).toContain(`permissions: ${join(root, 'permissions.json')}`);
    } finally {
      rmSync(join(root, 'permissions.json'));
    }
  });
  it('a missing --permissions file exits 2 naming the path', async () => {
    const missing = join(root, 'nope.json');
    const r = await brabo(['check', '--permissions', missing, '--', 'ls']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).toContain('ENOENT');
    expect(r.stdout).toBe('');
  });
  it('an invalid permissions file exits 2 naming the PermissionsError and the entry', async () => {
    const bad = join(root, 'bad.json');
    writeFileSync(bad, JSON.stringify({ allow: ['Termnal(ls)'], deny: [], ask: [] }));
    const r = await brabo(['check', '--permissions', bad, '--', 'ls']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PermissionsError (permissions_invalid)');
    expect(r.stderr).toContain('Termnal(ls)');
    writeFileSync(bad, '{"allow": [');
    const json = await brabo(['check', '--permissions', bad, '--', 'ls']);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('permissions_invalid_json');
  });
  it.each([
    [['check'], 'no command given'],
    [['check', '--role', 'admin', '--', 'ls'], '--role must be'],
    [['check', '--autonomy', 'yolo', '--', 'ls'], 'autonomy mode must be'],
    [['check', '--autonomy', 'auto_approve:global', '--', 'ls'], 'autonomy origin must be'],
    [['check', '--bogus', '--', 'ls'], "Unknown option '--bogus'"],
    [['check', '--jsonl', '--role', 'owner'], '--jsonl takes its requests from stdin only'],
  ])('usage error %j exits 2', async (args, message) => {
    const r = await brabo([...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

function parseAnswers(stdout: string): Array<Record<string, unknown>> {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('brabo check --jsonl (for a program)', () => {
  it('answers 1000 requests one per line, in order', async () => {
    const expected: string[] = [];
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const kind = i % 3;
      const command = kind === 0 ? `ls file-${i}` : kind === 1 ? `rm -rf / file-${i}` : `make file-${i}`;
      expected.push(kind === 0 ? 'auto_approve' : kind === 1 ? 'deny' : 'require_approval');
      lines.push(JSON.stringify({ command, permissions: PERMISSIONS, root }));
    }
    const r = await brabo(['check', '--jsonl'], { stdin: `${lines.join('\n')}\n` });
    expect(r.code).toBe(0);
    const answers = parseAnswers(r.stdout);
    expect(answers).toHaveLength(1000);
    answers.forEach((answer, i) => {
      expect(answer['policy'], `line ${i}`).toBe(expected[i]);
      const fragments = answer['fragments'] as Array<{ text: string }>;
      expect(fragments[0]?.text, `line ${i}`).toContain(`file-${i}`);
    });
  });
  it('a malformed line gets {"error"} on its own line and the batch goes on', async () => {
    const lines = [
      JSON.stringify({ command: 'ls', permissions: PERMISSIONS, root }),
      'not json',
      '',
      '   ',
      JSON.stringify({ command: 5 }),
      '[1,2]',
      JSON.stringify({ command: 'ls', permissions: { allow: ['Termnal(ls)'], deny: [], ask: [] } }),
      JSON.stringify({ actionType: 'nope', command: 'ls' }),
      JSON.stringify({ command: 'ls', autonomy: { mode: 'auto_approve', origin: 'everywhere' } }),
      JSON.stringify({
        actionType: 'git_push',
        autonomy: { mode: 'auto_approve', origin: 'curinga' },
        permissions: { allow: ['GitPush()'], deny: [], ask: [] },
      }),
      JSON.stringify({ command: 'cat README.md | grep x', permissions: PERMISSIONS, root, cwd: root }),
    ];
    // the last line has no trailing newline and still gets its answer
    const r = await brabo(['check', '--jsonl'], { stdin: lines.join('\n') });
    expect(r.code).toBe(0);
    const answers = parseAnswers(r.stdout);
    expect(answers).toHaveLength(lines.length);
    expect(answers[0]).toMatchObject({ policy: 'auto_approve', reasonCode: 'permissions_allow' });
    expect(answers[1]?.['error']).toMatch(/^invalid JSON/);
    expect(answers[2]?.['error']).toMatch(/^blank line/);
    expect(answers[3]?.['error']).toMatch(/^blank line/);
    expect(answers[4]?.['error']).toMatch(/command must be a string/);
    expect(answers[5]?.['error']).toMatch(/must be a JSON object/);
    expect(answers[6]?.['error']).toMatch(/PermissionsError.*Termnal/);
    expect(answers[7]?.['error']).toMatch(/unknown actionType "nope"/);
    expect(answers[8]?.['error']).toMatch(/autonomy origin/);
    expect(answers[9]).toMatchObject({ policy: 'require_approval', reasonCode: 'ceiling_typed_external_effect' });
    expect(answers[9]).not.toHaveProperty('fragments');
    expect(answers[10]).toMatchObject({ policy: 'auto_approve', reasonCode: 'permissions_allow' });
    for (const a of answers) expect(typeof a['reason'] === 'string' || typeof a['error'] === 'string').toBe(true);
  });
  it('defaults: terminal, empty permissions, root = process cwd, maintainer, no autonomy', async () => {
    const r = await brabo(['check', '--jsonl'], {
      cwd: root,
      stdin: `${JSON.stringify({ command: 'ls' })}\n${JSON.stringify({ command: 'ls', containerRunning: true })}\n${JSON.stringify({ command: 'ls', cwd: '/etc', containerRunning: true })}\n`,
    });
    const [plain, floor, outside] = parseAnswers(r.stdout);
    expect(plain).toMatchObject({ policy: 'require_approval', reasonCode: 'default_require_approval' });
    expect(floor).toMatchObject({ policy: 'auto_approve', reasonCode: 'container_floor' });
    expect(outside).toMatchObject({ policy: 'require_approval', reasonCode: 'ceiling_path_scope' });
  });
  // The volume only has to exceed the child's capped heap several times over to prove that stdin
  // is streamed; the timeout leaves room for a loaded 2-core CI machine (about 5 s of CPU, which
  // took over 30 s of wall time at load 30).
  it(
    'streams 80 MB with bounded memory; an oversized line is answered with an error, never held',
    { timeout: 180_000 },
    async () => {
      const LINE_BYTES = 10 * 1024;
      const LINES = 6_000; // 6 000 x 10 KB = 60 MB of requests, plus one 20 MB line: twice the 40 MB heap
      const request = (i: number): string => {
        const text = JSON.stringify({ command: `ls file-${i}`, permissions: PERMISSIONS, root });
        return `${text}${' '.repeat(LINE_BYTES - text.length - 1)}\n`;
      };
      // The child's V8 heap is capped far below the input: an implementation that read all of stdin
      // (or held the oversized line) would die of a heap OOM instead of answering every line.
      const r = await brabo(['check', '--jsonl'], {
        env: { NODE_OPTIONS: '--max-old-space-size=40' },
        stdin: async (w) => {
          const write = (data: string | Buffer) =>
            new Promise<void>((ok) => (w.write(data) ? ok() : w.once('drain', () => ok())));
          for (let i = 0; i < LINES; i++) {
            if (i === LINES / 2) {
              await write('{"command": "');
              for (let mb = 0; mb < 20; mb++) await write(Buffer.alloc(1024 * 1024, 'x'));
              await write('"}\n');
            }
            await write(request(i));
          }
        },
      });
      expect(r.code).toBe(0);
      const answers = parseAnswers(r.stdout);
      expect(answers).toHaveLength(LINES + 1);
      answers.forEach((answer, n) => {
        if (n === LINES / 2) {
          expect(answer['error']).toMatch(/^line too long: \d+ bytes/);
          return;
        }
        const i = n < LINES / 2 ? n : n - 1;
        expect(answer['policy'], `line ${n}`).toBe('auto_approve');
        expect((answer['fragments'] as Array<{ text: string }>)[0]?.text).toBe(`ls file-${i}`);
      });
      // RSS stays bounded too (generous: it also holds Node's baseline and uncollected garbage).
      expect(r.peakRssKb).toBeGreaterThan(0);
      expect(r.peakRssKb).toBeLessThan(400 * 1024);
    },
  );
});
