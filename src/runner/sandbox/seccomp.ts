// A classic-BPF seccomp program for bwrap's --seccomp: the sandboxed command cannot create unix
// sockets (so /var/run/docker.sock, an ssh-agent or a D-Bus session, which would each run things
// outside the sandbox, are unreachable even though the file system is readable), cannot use
// io_uring (which performs socket operations without passing through the socket system call), and
// cannot make system calls of another ABI (i386/x32 on x86_64, arm32 on arm64), where the same
// call has another number. socketpair() stays allowed: it only connects the process to itself.
// Setting or removing extended attributes fails with ENOTSUP (what tools see on file systems
// without them, and skip): the pinned .git is the one place of the host whose metadata a sandboxed
// command could otherwise change; its mode, owner and times are restored after the command
// (launch.ts), xattrs are refused here.

const BPF = {
  ldAbsW: 0x20, // BPF_LD | BPF_W | BPF_ABS
  jeqK: 0x15, // BPF_JMP | BPF_JEQ | BPF_K
  jgeK: 0x35, // BPF_JMP | BPF_JGE | BPF_K
  retK: 0x06, // BPF_RET | BPF_K
} as const;

const SECCOMP_RET_ALLOW = 0x7fff_0000;
const SECCOMP_RET_ERRNO = 0x0005_0000;
const EPERM = 1;
const ENOSYS = 38;
const ENOTSUP = 95;
const AF_UNIX = 1;
/** Offsets in struct seccomp_data. args[0]'s low 32 bits sit at 16 on little-endian machines. */
const OFFSET = { nr: 0, arch: 4, arg0Low: 16 } as const;

export interface SeccompArch {
  name: 'x64' | 'arm64';
  auditArch: number;
  socketNr: number;
  ioUringSetupNr: number;
  /** x32 system calls on x86_64 carry this bit; 0 where there is no such ABI. */
  foreignNrBit: number;
  /** setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr, setxattrat, removexattrat. */
  xattrWriteNrs: readonly number[];
}

export const SECCOMP_ARCHES: Record<'x64' | 'arm64', SeccompArch> = {
  x64: {
    name: 'x64',
    auditArch: 0xc000_003e,
    socketNr: 41,
    ioUringSetupNr: 425,
    foreignNrBit: 0x4000_0000,
    xattrWriteNrs: [188, 189, 190, 197, 198, 199, 463, 466],
  },
  arm64: {
    name: 'arm64',
    auditArch: 0xc000_00b7,
    socketNr: 198,
    ioUringSetupNr: 425,
    foreignNrBit: 0,
    xattrWriteNrs: [5, 6, 7, 14, 15, 16, 463, 466],
  },
};

export class SeccompUnsupportedError extends Error {
  override name = 'SeccompUnsupportedError';
}

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The program as bwrap reads it from its --seccomp file descriptor (struct sock_filter[]). */
export function seccompProgram(archName: string = process.arch): Buffer {
  const arch = (SECCOMP_ARCHES as Record<string, SeccompArch | undefined>)[archName];
  if (arch === undefined)
    throw new SeccompUnsupportedError(`no seccomp filter for the ${archName} architecture (only x64 and arm64)`);
  const program: Instruction[] = [];
  const at = (): number => program.length;
  program.push([BPF.ldAbsW, 0, 0, OFFSET.arch]);
  const archCheck = at();
  program.push([BPF.jeqK, 0, 0 /* -> denyAbi */, arch.auditArch]);
  program.push([BPF.ldAbsW, 0, 0, OFFSET.nr]);
  let foreignCheck = -1;
  if (arch.foreignNrBit !== 0) {
    foreignCheck = at();
    program.push([BPF.jgeK, 0 /* -> denyAbi */, 0, arch.foreignNrBit]);
  }
  const uringCheck = at();
  program.push([BPF.jeqK, 0 /* -> denyNosys */, 0, arch.ioUringSetupNr]);
  const xattrChecks: number[] = [];
  for (const nr of arch.xattrWriteNrs) {
    xattrChecks.push(at());
    program.push([BPF.jeqK, 0 /* -> denyNotsup */, 0, nr]);
  }
  const socketCheck = at();
  program.push([BPF.jeqK, 0, 0 /* -> allow */, arch.socketNr]);
  program.push([BPF.ldAbsW, 0, 0, OFFSET.arg0Low]);
  const unixCheck = at();
  program.push([BPF.jeqK, 0 /* -> denyPerm */, 0 /* -> allow */, AF_UNIX]);
  const allow = at();
  program.push([BPF.retK, 0, 0, SECCOMP_RET_ALLOW]);
  const denyPerm = at();
  program.push([BPF.retK, 0, 0, SECCOMP_RET_ERRNO | EPERM]);
  const denyAbi = at();
  program.push([BPF.retK, 0, 0, SECCOMP_RET_ERRNO | ENOSYS]);
  const denyNosys = denyAbi;
  const denyNotsup = at();
  program.push([BPF.retK, 0, 0, SECCOMP_RET_ERRNO | ENOTSUP]);

  // Jump offsets are relative to the next instruction.
  const rel = (from: number, to: number): number => to - from - 1;
  program[archCheck]![2] = rel(archCheck, denyAbi);
  if (foreignCheck >= 0) program[foreignCheck]![1] = rel(foreignCheck, denyAbi);
  program[uringCheck]![1] = rel(uringCheck, denyNosys);
  for (const check of xattrChecks) program[check]![1] = rel(check, denyNotsup);
  program[socketCheck]![2] = rel(socketCheck, allow);
  program[unixCheck]![1] = rel(unixCheck, denyPerm);
  program[unixCheck]![2] = rel(unixCheck, allow);

  const buffer = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    buffer.writeUInt16LE(code, index * 8);
    buffer.writeUInt8(jt, index * 8 + 2);
    buffer.writeUInt8(jf, index * 8 + 3);
    buffer.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return buffer;
}
