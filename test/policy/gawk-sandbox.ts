// gawk --sandbox as the oracle of awk-program.ts: one program run over one input line. The line
// is read from a file operand: written to a pipe it raced gawk's exit (a BEGIN-only program never
// reads its input, and the write then failed with EPIPE, an error that was not gawk's).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type GawkVerdict = 'reaches' | 'ran' | 'error';

let input: string | null = null;

function inputFile(): string {
  if (input === null) {
    input = join(mkdtempSync(join(tmpdir(), 'gawk-oracle-')), 'line.txt');
    writeFileSync(input, 'a 1 b\n');
  }
  return input;
}

/** 'reaches' when gawk refuses the program in sandbox mode, 'ran' when it runs it. */
export function gawkSandbox(program: string): { verdict: GawkVerdict; stderr: string } {
  try {
    execFileSync('gawk', ['--sandbox', program, inputFile()], { stdio: ['ignore', 'pipe', 'pipe'] });
    return { verdict: 'ran', stderr: '' };
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    return { verdict: stderr.includes('not allowed in sandbox mode') ? 'reaches' : 'error', stderr };
  }
}
