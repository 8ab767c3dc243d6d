// Adversarial tests of each sandbox rule with the real bubblewrap (`.ci/run` installs it through
// scripts/test-packages.txt). Each rule is attacked in several ways, and where it makes sense the
// same attack is run unsandboxed first, to show the test can fail.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/runner/sandbox/platform.ts';
import { canaryTree, protectedState, runIn, snapshot } from './support/sandbox.ts';
import type { Canary } from './support/sandbox.ts';

let canary: Canary;
beforeEach(() => {
  canary = canaryTree();
});
afterEach(() => canary.cleanup());

const q = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

describe('this machine has a working bwrap (the suites below need it)', () => {
  it('probe: bwrap with seccomp', async () => {
    expect(await probeSandbox()).toEqual({ available: true, backend: 'bwrap', seccomp: true });
  });
});

describe('the host file system is read-only; the root is writable', () => {
  it('writes in the root land', async () => {
    const outcome = await runIn(
      canary.root,
      'echo made > made.txt && mkdir -p deep/er && echo x > deep/er/f && cat made.txt',
    );
    expect(outcome).toMatchObject({ exitCode: 0, stdout: 'made\n' });
    expect(readFileSync(path.join(canary.root, 'deep', 'er', 'f'), 'utf8')).toBe('x\n');
  });

  const outsideWrites = (dir: string): string[] => [
    `echo pwned > ${dir}/secret.txt`,
    `echo pwned >> ${dir}/secret.txt`,
    `touch ${dir}/new.txt`,
    `mkdir ${dir}/newdir`,
    `rm -f ${dir}/secret.txt`,
    `mv ${dir}/secret.txt ${dir}/moved.txt`,
    `chmod 777 ${dir}/secret.txt`,
    `ln -s /etc/passwd ${dir}/link`,
    `cp src/a.txt ${dir}/copied.txt`,
    `python3 -c ${q(`open('${dir}/secret.txt','a').write('pwned')`)}`,
    `node -e ${q(`require('fs').writeFileSync('${dir}/secret.txt','pwned')`)}`,
    `sh -c ${q(`cd ${dir} && echo pwned > secret.txt`)}`,
    `cd .. && cd .. && echo pwned > ${dir}/secret.txt`,
  ];

  it('13 ways of writing outside the root change nothing on the host disk (and do unsandboxed)', async () => {
    const control = await runIn(canary.root, `echo pwned > ${canary.outside}/secret.txt`, { sandboxed: false });
    expect(control.exitCode).toBe(0);
    expect(readFileSync(path.join(canary.outside, 'secret.txt'), 'utf8')).toBe('pwned\n');
    const before = snapshot(canary.outside);
    for (const command of outsideWrites(canary.outside)) {
      const outcome = await runIn(canary.root, command);
      expect({ command, exitCode: outcome.exitCode === 0 ? 0 : 'failed' }).toEqual({ command, exitCode: 'failed' });
      expect(snapshot(canary.outside), command).toEqual(before);
    }
  }, 300_000);

  it('the gateway checkout and $HOME are read-only too', async () => {
    const checkout = process.cwd();
    for (const command of [
      `touch ${checkout}/pwned`,
      `echo x >> ${checkout}/package.json`,
      'touch "$HOME/.brabo-pwned"',
      'echo x >> "$HOME/.profile"',
    ]) {
      const outcome = await runIn(canary.root, command);
      expect(outcome.exitCode, command).not.toBe(0);
    }
    expect(existsSync(path.join(checkout, 'pwned'))).toBe(false);
  });
});

describe('.git/config, .git/hooks and permissions.json inside the root are read-only; .git cannot be replaced', () => {
  const attacks = [
    'echo "[core] fsmonitor = touch /tmp/x" >> .git/config',
    'printf "[core]\\n\\tfsmonitor = evil\\n" > .git/config',
    ': > .git/config',
    'git config core.fsmonitor "echo pwned"',
    'git config core.hooksPath /tmp',
    'cd .git && echo x >> config',
    'cd -P .git && echo x >> ./config',
    'echo x >> ./.git//config',
    'echo x >> .gi?/config',
    'printf "#!/bin/sh\\necho pwned\\n" > .git/hooks/pre-commit',
    'cp src/a.txt .git/hooks/post-checkout',
    'echo x > .git/hook?/pre-commit',
    'rm -rf .git/hooks',
    'mv .git/hooks .git/hooks-old && mkdir .git/hooks && echo x > .git/hooks/pre-commit',
    'mv .git/config .git/config.bak && echo evil > .git/config',
    'rm -f .git/config; echo evil > .git/config',
    'ln -sf /tmp/evil .git/config',
    'echo \'{"allow":["Terminal(curl:*)"]}\' > permissions.json',
    'echo x >> permissions.json',
    'rm -f permissions.json && echo "{}" > permissions.json',
    'mv permissions.json p.json && echo "{}" > permissions.json',
    'chmod 777 permissions.json .git/config',
    'mv .git .git-old && mkdir -p .git/hooks && echo evil > .git/config',
    'rm -rf .git; mkdir -p .git/hooks; echo evil > .git/config',
    'cp -r .git /tmp/g && echo evil >> /tmp/g/config && rm -rf .git && mv /tmp/g .git',
    "python3 -c \"open('.git/config','a').write('[core]\\\\n\\\\tfsmonitor=evil\\\\n')\"",
    "python3 -c \"import os; os.rename('.git', 'g2')\"",
    "python3 -c \"import os; os.replace('src/a.txt', 'permissions.json')\"",
    "node -e \"require('fs').appendFileSync('.git/config', 'evil')\"",
    "node -e \"require('fs').writeFileSync('.git/hooks/pre-push', 'evil', {mode: 0o755})\"",
    "node -e \"require('fs').renameSync('.git', 'g3')\"",
    'sh -c "echo evil > permissions.json"',
    'find . -name config -path "*/.git/*" -exec sh -c "echo evil >> {}" \\;',
    // The protected entries' own metadata: mode, group, times, extended attributes.
    'chmod 777 .git',
    'chmod 777 .git/hooks .git/config permissions.json',
    'chmod -R o+w .git',
    'chmod g+s .git && chgrp $(id -g) .git',
    'touch -d 2001-01-01 .git .git/hooks .git/config permissions.json',
    "python3 -c \"import os; os.chmod('.git', 0o777); os.utime('.git', (1, 1))\"",
    "python3 -c \"import os; os.setxattr('.git', 'user.pwned', b'1')\"",
    "python3 -c \"import os; os.setxattr('permissions.json', 'user.pwned', b'1')\"",
    "node -e \"require('fs').chmodSync('.git', 0o777)\"",
    'cd .git && chmod 777 .',
    'cd -P .git && chmod 777 ../.git',
    // Git's redirections, absent before: they would send git to a config and hooks elsewhere.
    'mkdir -p src/evil/hooks && printf "[core]\\n\\tfsmonitor = evil\\n" > src/evil/config && echo ../src/evil > .git/commondir',
    'printf "[core]\\n\\tfsmonitor = evil\\n" > .git/config.worktree',
    'mkdir -p .git/modules/lib && printf "[core]\\n\\tfsmonitor = evil\\n" > .git/modules/lib/config',
    'mkdir -p .git/worktrees/w && echo evil > .git/worktrees/w/config',
    "python3 -c \"open('.git/commondir','w').write('/tmp')\"",
  ];

  it.each(['read-only', 'writable'] as const)(
    `--sandbox-git %s: ${attacks.length} attacks leave every protected entry as it was (each also works unsandboxed on a copy)`,
    async (git) => {
      const control = canaryTree();
      try {
        const controlBefore = protectedState(control.root);
        const outcome = await runIn(
          control.root,
          'chmod 777 .git && echo x >> .git/config && echo y > .git/hooks/pre-commit && echo z > permissions.json',
          { sandboxed: false },
        );
        expect(outcome.exitCode).toBe(0);
        const controlAfter = protectedState(control.root);
        for (const name of ['.git', '.git/config', '.git/hooks', 'permissions.json'])
          expect(controlAfter[name], name).not.toBe(controlBefore[name]);
      } finally {
        control.cleanup();
      }
      const before = protectedState(canary.root);
      const beforeWithoutXattrs = protectedState(canary.root, { xattrs: false });
      for (const command of attacks) {
        await runIn(canary.root, command, { git });
        // xattrs are listed (a python3 start) only after the attacks that could set one.
        if (command.includes('xattr')) expect(protectedState(canary.root), command).toEqual(before);
        else expect(protectedState(canary.root, { xattrs: false }), command).toEqual(beforeWithoutXattrs);
      }
    },
    300_000,
  );

  it.each(['writable', 'read-only'] as const)(
    '--sandbox-git %s: git redirections created by a command are deleted afterwards (read-only: cannot be created), whatever the command planted to stop it (lead S1/S2)',
    async (git) => {
      const { mkdirSync, readdirSync, readFileSync: read } = await import('node:fs');
      const victim = path.join(canary.outside, 'victim');
      mkdirSync(victim);
      const attacks = [
        'echo ../src > .git/commondir && echo x > .git/config.worktree',
        // S1: a plain file where a quarantine folder would go, plus a fake repository to point at.
        `mkdir -p evil && cp -r .git/refs evil/ && printf '[core]\\n\\tfsmonitor = "touch ${victim}/PWNED; false"\\n' > evil/config && echo blocker > .git/brabo-quarantine && echo ../evil > .git/commondir`,
        // S2: a symlink out of the root where a quarantine folder would go.
        `ln -s ${victim} .git/brabo-quarantine; printf '#!/bin/sh\\ntouch ${victim}/PWNED\\n' > .git/commondir; chmod +x .git/commondir`,
        `ln -s ${path.join(canary.root, '.git', 'hooks')} .git/brabo-quarantine; echo evil > .git/commondir`,
        'ln -s /etc .git/modules',
        `ln -s ${victim} .git/worktrees`,
        'mkdir -p .git/modules/x/y && echo "[core] fsmonitor = evil" > .git/modules/x/config && chmod 500 .git/modules/x && chmod 000 .git/modules/x/y',
      ];
      const victimBefore = snapshot(victim);
      const protectedBefore = protectedState(canary.root, { xattrs: false });
      for (const command of attacks) {
        await runIn(canary.root, command, { git });
        for (const name of ['commondir', 'config.worktree', 'modules', 'worktrees']) {
          expect(
            existsSync(path.join(canary.root, '.git', name)) ||
              (await import('node:fs')).lstatSync(path.join(canary.root, '.git', name), { throwIfNoEntry: false }) !==
                undefined,
            `${command}: .git/${name}`,
          ).toBe(false);
        }
        expect(snapshot(victim), command).toEqual(victimBefore);
        expect(protectedState(canary.root, { xattrs: false }), command).toEqual(protectedBefore);
      }
      expect(readdirSync(victim)).toEqual([]);
      // And git in the root does not run the planted fsmonitor.
      const status = await runIn(canary.root, 'git status >/dev/null 2>&1; true', { sandboxed: false });
      expect(status.exitCode).toBe(0);
      expect(existsSync(path.join(victim, 'PWNED'))).toBe(false);
      void read;
    },
    300_000,
  );

  it('a .git/commondir found in a main repository refuses sandboxed commands (sandbox_unprotectable)', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path.join(canary.root, '.git', 'commondir'), '../elsewhere\n');
    const { prepareProtection, SandboxUnprotectableError } = await import('../../src/runner/sandbox/prepare.ts');
    expect(() => prepareProtection(canary.root)).toThrow(SandboxUnprotectableError);
    // Unsandboxed (human-approved) commands are refused too: a commondir left by a sandboxed
    // command whose runner was killed before it could delete it must not reach a host git.
    const { executeTerminal } = await import('../../src/runner/terminal-action.ts');
    for (const approval of ['human', 'auto'] as const) {
      const result = await executeTerminal(
        {
          dispatchId: `d-${approval}`,
          attempt: 1,
          action: { type: 'terminal', command: 'touch ran.txt', cwd: canary.root, approval },
        },
        {
          root: canary.root,
          limits: {
            defaultTimeoutMs: 10_000,
            killGraceMs: 500,
            maxOutputBytes: 4096,
            chunkChars: 1024,
            flushIntervalMs: 50,
          },
          env: process.env,
          sandbox: { mode: 'auto', network: true, availability: { available: true, backend: 'bwrap', seccomp: true } },
          sendOutput: () => {},
          signal: new AbortController().signal,
        },
      );
      expect(result).toMatchObject({ status: 'refused', reason: { code: 'sandbox_unprotectable' } });
      expect(existsSync(path.join(canary.root, 'ran.txt'))).toBe(false);
    }
  });

  it.each(['read-only', 'writable'] as const)(
    '--sandbox-git %s: a linked worktree: its git dir inside the root (pinned, or read-only whole) cannot be swapped for a look-alike',
    async (git) => {
      const { mkdirSync, rmSync, writeFileSync } = await import('node:fs');
      rmSync(path.join(canary.root, '.git'), { recursive: true });
      mkdirSync(path.join(canary.root, 'gitdir', 'hooks'), { recursive: true });
      writeFileSync(path.join(canary.root, 'gitdir', 'config'), '[core]\n');
      writeFileSync(path.join(canary.root, '.git'), 'gitdir: gitdir\n');
      for (const command of [
        'mv gitdir old && mkdir -p gitdir/hooks && echo evil > gitdir/config',
        'rm -rf gitdir; mkdir -p gitdir && echo evil > gitdir/config',
        'echo "gitdir: elsewhere" > .git',
        'rm -f .git && echo "gitdir: src" > .git',
      ]) {
        await runIn(canary.root, command, { git });
        expect(readFileSync(path.join(canary.root, 'gitdir', 'config'), 'utf8'), command).toBe('[core]\n');
        expect(readFileSync(path.join(canary.root, '.git'), 'utf8'), command).toBe('gitdir: gitdir\n');
      }
    },
  );

  it('an absent .git/hooks, .git/config and permissions.json are created first, then protected', async () => {
    const bare = canaryTree();
    try {
      const { rmSync } = await import('node:fs');
      rmSync(path.join(bare.root, '.git'), { recursive: true });
      rmSync(path.join(bare.root, 'permissions.json'));
      for (const command of [
        'mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit',
        'echo "[core] fsmonitor=evil" > .git/config',
        'echo "{\\"allow\\":[\\"Terminal(rm:*)\\"]}" > permissions.json',
      ]) {
        await runIn(bare.root, command);
      }
      expect(readFileSync(path.join(bare.root, '.git', 'config'), 'utf8')).toBe('');
      expect(existsSync(path.join(bare.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(JSON.parse(readFileSync(path.join(bare.root, 'permissions.json'), 'utf8'))).toEqual({
        allow: [],
        deny: [],
        ask: [],
      });
    } finally {
      bare.cleanup();
    }
  });

  it('--sandbox-git writable: git still works inside the sandbox for what it should do (status, add, commit write .git/index and objects)', async () => {
    const repo = canaryTree();
    try {
      const { rmSync } = await import('node:fs');
      rmSync(path.join(repo.root, '.git'), { recursive: true });
      const init = await runIn(
        repo.root,
        'git init -q -b main . && git config user.email a@b && git config user.name a',
        { sandboxed: false },
      );
      expect(init.exitCode).toBe(0);
      const outcome = await runIn(repo.root, 'git add src && git commit -qm first && git log --oneline | wc -l', {
        git: 'writable',
      });
      expect(outcome).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('1') });
    } finally {
      repo.cleanup();
    }
  });
});

describe('credentials outside the root are unreadable', () => {
  it("~/.ssh, ~/.aws, ~/.docker, ~/.netrc, ~/.git-credentials and the runner's journal read as empty; unsandboxed they read", async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const home = path.join(canary.outside, 'home');
    const secrets: Record<string, string> = {
      '.ssh/id_ed25519': 'SSH-KEY-CANARY',
      '.aws/credentials': 'AWS-CANARY',
      '.docker/config.json': 'DOCKER-CANARY',
      '.config/gh/hosts.yml': 'GH-CANARY',
      '.netrc': 'NETRC-CANARY',
      '.git-credentials': 'GIT-CANARY',
      '.npmrc': 'NPM-CANARY',
    };
    for (const [name, text] of Object.entries(secrets)) {
      mkdirSync(path.dirname(path.join(home, name)), { recursive: true });
      writeFileSync(path.join(home, name), text);
    }
    const journal = path.join(canary.outside, 'runner-journal.jsonl');
    writeFileSync(journal, 'JOURNAL-CANARY');
    const env = { ...process.env, HOME: home };
    const readAll = `cat ${Object.keys(secrets)
      .map((name) => `"$HOME/${name}"`)
      .join(' ')} ${journal}; grep -r CANARY "$HOME" ${canary.outside}; ls -a "$HOME/.ssh"`;
    const control = await runIn(canary.root, readAll, { sandboxed: false, env });
    for (const text of [...Object.values(secrets), 'JOURNAL-CANARY']) expect(control.stdout).toContain(text);
    const outcome = await runIn(canary.root, readAll, { env, hide: [journal] });
    expect(outcome.stdout).not.toContain('CANARY');
    for (const command of [
      `python3 -c "print(open('${home}/.ssh/id_ed25519').read())"`,
      `node -e "console.log(require('fs').readFileSync('${home}/.aws/credentials', 'utf8'))"`,
      `cd ${home} && tar cf - . | strings`,
      `find ${home} -type f -exec cat {} +`,
    ]) {
      const attempt = await runIn(canary.root, command, { env, hide: [journal] });
      expect(attempt.stdout, command).not.toContain('CANARY');
    }
  }, 300_000);

  it('a root inside a credential folder (or containing one) is never hidden from itself', async () => {
    const { hiddenPaths } = await import('../../src/runner/sandbox/hidden.ts');
    const { mkdirSync } = await import('node:fs');
    const home = path.join(canary.outside, 'home2');
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    mkdirSync(path.join(home, '.docker', 'project'), { recursive: true });
    expect(
      hiddenPaths(home, path.join(home, '.docker', 'project')).map((entry) => path.relative(home, entry.path)),
    ).toEqual(['.ssh']);
    expect(hiddenPaths(home, home)).toEqual([]);
  });
});

describe('/tmp is private', () => {
  it('the host /tmp is invisible and what the command writes there is gone afterwards', async () => {
    const outcome = await runIn(
      canary.root,
      `cat ${canary.tmpOutside}/secret.txt; ls -A /tmp; ls -A ${canary.base}; echo left > /tmp/brabo-left-behind-${path.basename(canary.base)}`,
    );
    // Only the way down to the root (which lives under the host's /tmp in this test) exists there.
    expect(outcome.stdout.trim().split('\n')).toEqual([path.basename(canary.base), 'root']);
    expect(existsSync(`/tmp/brabo-left-behind-${path.basename(canary.base)}`)).toBe(false);
    expect(readFileSync(path.join(canary.tmpOutside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });
});

describe('other processes (the runner, its environment) cannot be seen or signalled', () => {
  it("/proc/<pid>/environ of a host process holding a secret is unreadable; only the sandbox's own processes are listed", async () => {
    const holder = spawn('sleep', ['30'], {
      env: { ...process.env, BRABO_RUNNER_TOKEN: 'brt_canary_secret_token' },
      stdio: 'ignore',
    });
    try {
      const pid = holder.pid!;
      const control = await runIn(canary.root, `cat /proc/${pid}/environ | tr '\\0' '\\n' | grep BRABO_RUNNER_TOKEN`, {
        sandboxed: false,
      });
      expect(control.stdout).toContain('brt_canary_secret_token');
      for (const command of [
        `cat /proc/${pid}/environ`,
        `tr '\\0' '\\n' < /proc/${pid}/environ`,
        `python3 -c "print(open('/proc/${pid}/environ').read())"`,
        `cat /proc/${process.pid}/environ`,
        `cat /proc/${process.ppid}/environ`,
        `for p in /proc/[0-9]*; do cat $p/environ; done`,
        `grep -a BRABO /proc/*/environ`,
      ]) {
        const outcome = await runIn(canary.root, command);
        expect(outcome.stdout + outcome.stderr, command).not.toContain('brt_canary_secret_token');
      }
      const listing = await runIn(canary.root, 'ls -d /proc/[0-9]* | wc -l');
      expect(Number(listing.stdout.trim())).toBeLessThanOrEqual(6);
      const signal = await runIn(canary.root, `kill -0 ${pid} && echo reachable`);
      expect(signal.stdout).not.toContain('reachable');
    } finally {
      holder.kill('SIGKILL');
    }
  }, 300_000);

  it('no capabilities, even when the runner is root: the read-only binds cannot be unmounted or remounted', async () => {
    for (const command of [
      'umount .git/config',
      'umount -l .git/hooks',
      'mount -o remount,rw /',
      'mount -o remount,rw,bind permissions.json',
      'mount --bind src .git/hooks',
      'unshare -rm sh -c "umount .git/config && echo x >> .git/config"',
    ]) {
      const outcome = await runIn(canary.root, command);
      expect(outcome.exitCode, command).not.toBe(0);
    }
    const caps = await runIn(canary.root, 'grep CapEff /proc/self/status');
    expect(caps.stdout.trim()).toBe('CapEff:\t0000000000000000');
  });
});

describe('unix sockets are unreachable (docker.sock, ssh-agent, D-Bus)', () => {
  it('connecting to a unix socket on the host fails, by path and through every interpreter; unsandboxed it works', async () => {
    const socketPath = path.join(canary.outside, 'docker.sock');
    const server = net.createServer((socket) => socket.end('HTTP/1.0 200 OK\r\n\r\nreached\n'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const control = await runIn(
        canary.root,
        `node -e ${q(`require('net').connect('${socketPath}').on('data', d => process.stdout.write(d))`)}`,
        { sandboxed: false },
      );
      expect(control.stdout).toContain('reached');
      for (const command of [
        `node -e ${q(`require('net').connect('${socketPath}').on('data', d => process.stdout.write(d))`)}`,
        `python3 -c ${q(`import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(100))`)}`,
        `python3 -c ${q(`import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.connect('${socketPath}')`)}`,
        `curl -s --unix-socket ${socketPath} http://x/`,
        `python3 -c ${q("import socket; s=socket.socket(socket.AF_UNIX); s.connect('\\0abstract-brabo')")}`,
      ]) {
        const outcome = await runIn(canary.root, command);
        expect(outcome.stdout, command).not.toContain('reached');
        expect(outcome.exitCode, command).not.toBe(0);
      }
    } finally {
      server.close();
    }
  }, 300_000);

  it('socketpair and pipes still work (interpreters and build tools need them)', async () => {
    const outcome = await runIn(
      canary.root,
      `python3 -c ${q('import socket; a,b=socket.socketpair(); a.send(b"ok"); print(b.recv(2).decode())')} && echo hi | cat`,
    );
    expect(outcome).toMatchObject({ exitCode: 0, stdout: 'ok\nhi\n' });
  });
});

describe('--sandbox-network', () => {
  it('on (default): outbound TCP works; off: it does not', async () => {
    const server = net.createServer((socket) => socket.end('tcp-reached\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const client = `node -e ${q(`require('net').connect(${port}, '127.0.0.1').on('data', d => process.stdout.write(d)).on('error', e => { console.error(e.code); process.exit(7); })`)}`;
    try {
      expect((await runIn(canary.root, client)).stdout).toBe('tcp-reached\n');
      const off = await runIn(canary.root, client, { network: false });
      expect(off.stdout).not.toContain('tcp-reached');
      expect(off.exitCode).toBe(7);
      const python = await runIn(
        canary.root,
        `python3 -c ${q(`import socket; socket.create_connection(('127.0.0.1', ${port}), 2)`)}`,
        { network: false },
      );
      expect(python.exitCode).not.toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('the terminal: a new session', () => {
  it("the command has no controlling terminal (TIOCSTI cannot type into the runner's shell)", async () => {
    const outcome = await runIn(canary.root, 'tty; ps -o sid= -p $$ 2>/dev/null; echo $$');
    expect(outcome.stdout).toContain('not a tty');
  });
});
