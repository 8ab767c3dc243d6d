// `brabo check --jsonl … | head`: the reader going away mid-stream ends the command quietly
// (exit, no unhandled 'error' event and no stack trace on stderr).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BRABO = resolve(import.meta.dirname, '../../bin/brabo');

describe('brabo check when its reader goes away', () => {
  it('a closed stdout pipe (EPIPE) ends --jsonl quietly, without a stack trace', async () => {
    const child = spawn(BRABO, ['check', '--jsonl'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.stdin.on('error', () => undefined); // the child may stop reading once its stdout is gone
    // Like `head -1`: read the first answer, then close the read end while answers keep coming.
    const firstLine = new Promise<string>((done) => {
      let seen = '';
      const onData = (chunk: Buffer): void => {
        seen += chunk.toString();
        if (!seen.includes('\n')) return;
        child.stdout.off('data', onData);
        child.stdout.destroy();
        done(seen.slice(0, seen.indexOf('\n')));
      };
      child.stdout.on('data', onData);
    });
    const line = `${JSON.stringify({ command: 'ls -la' })}\n`;
    const feed = async (): Promise<void> => {
      for (let i = 0; i < 20_000 && !child.stdin.destroyed; i++) {
        if (!child.stdin.write(line)) await new Promise((r) => child.stdin.once('drain', r).once('close', r));
      }
      child.stdin.end();
    };
    void feed();
    expect(JSON.parse(await firstLine)).toHaveProperty('policy');
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
  }, 120_000);
});
