// macOS back-end: the rules as a Seatbelt (sandbox-exec) profile. In SBPL the last matching rule
// wins, so the profile goes from broad to narrow: everything allowed, then all writes denied, then
// writes allowed in the root and the private temp folder, then the protected entries denied again.
// Unix sockets and other processes' information are denied outright.
import type { SandboxRules } from './rules.ts';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

export interface SeatbeltOptions {
  /** A folder created for this command only; it becomes TMPDIR (macOS has no mount namespace for /tmp). */
  privateTmp: string;
}

/** An SBPL string literal: backslash and double quote escaped; control characters refused. */
export function sbplString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) < 0x20)
      throw new Error(`a sandbox path contains a control character: ${JSON.stringify(value)}`);
  }
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export function seatbeltProfile(rules: SandboxRules, options: SeatbeltOptions): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '; the host is read-only',
    '(deny file-write*)',
    "; the project root and this command's private temp folder are writable, as are the terminal devices",
    `(allow file-write* (subpath ${sbplString(rules.root)}) (subpath ${sbplString(options.privateTmp)})`,
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/tty"))',
  ];
  if (rules.readOnly.length > 0 || rules.pinned.length > 0 || rules.mustNotAppear.length > 0) {
    lines.push('; protected inside the root: read-only, and not movable (a rename would carry them away)');
    const filters = [
      ...rules.readOnly.map((entry) =>
        entry.kind === 'dir' ? `(subpath ${sbplString(entry.path)})` : `(literal ${sbplString(entry.path)})`,
      ),
      ...rules.pinned.map((folder) => `(literal ${sbplString(folder)})`),
      ...rules.mustNotAppear.map((entry) => `(literal ${sbplString(entry)}) (subpath ${sbplString(entry)})`),
    ];
    lines.push(`(deny file-write* ${filters.join(' ')})`);
  }
  if (rules.hidden.length > 0) {
    lines.push(
      '; credentials outside the root are unreadable',
      `(deny file-read* ${rules.hidden.map((entry) => (entry.kind === 'dir' ? `(subpath ${sbplString(entry.path)})` : `(literal ${sbplString(entry.path)})`)).join(' ')})`,
    );
  }
  lines.push(
    '; no unix sockets: docker.sock, ssh-agent and friends would run things outside the sandbox',
    '(deny network* (remote unix-socket))',
    '(deny network-bind (local unix-socket))',
  );
  if (!rules.network) lines.push('; --sandbox-network off', '(deny network*)');
  if (rules.isolateProcesses) {
    lines.push(
      '; other processes (the runner, its environment) stay invisible and out of reach',
      '(deny process-info* (target others))',
      '(deny signal (target others))',
    );
  }
  return lines.join('\n') + '\n';
}

export function seatbeltArgs(rules: SandboxRules, command: string, options: SeatbeltOptions): string[] {
  return ['-p', seatbeltProfile(rules, options), '/bin/sh', '-c', command];
}
