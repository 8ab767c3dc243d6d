// Which script file a reading runs (piped-scripts.ts scriptFileRun), for the scripts a command
// writes and then runs (adversarial-written-scripts.test.ts).
import { describe, expect, it } from 'vitest';
import { scriptFileRun } from '../../src/policy/piped-scripts.ts';

describe('scriptFileRun', () => {
  it.each([
    [['sh', 'x.sh'], 'x.sh'],
    [['/bin/bash', '-e', 'x.sh', 'arg'], 'x.sh'],
    [['bash', '-o', 'errexit', 'x.sh'], 'x.sh'],
    [['bash', '--rcfile', 'rc', 'x.sh'], 'x.sh'],
    [['sh', '--', 'x.sh'], 'x.sh'],
    [['sh', '--', '-x.sh'], '-x.sh'],
    [['busybox', 'sh', 'x.sh'], 'x.sh'],
    [['.', './x.sh'], './x.sh'],
    [['.', '--', 'x.sh'], 'x.sh'],
    [['source', 'x.sh'], 'x.sh'],
    [['./x.sh', 'arg'], './x.sh'],
    [['/tmp/x.sh'], '/tmp/x.sh'],
  ])('%j runs %j', (view, file) => {
    expect(scriptFileRun(view)).toBe(file);
  });

  it.each([
    [['sh']],
    [['sh', '-']],
    [['sh', '-s', 'x.sh']],
    [['sh', '-c', 'ls', 'x.sh']],
    [['bash', '-ec', 'ls']],
    [['sh', '--']],
    [['busybox', 'ls', 'x.sh']],
    [['busybox', 'busybox', 'x.sh']],
    [['.']],
    [['source']],
    [['python3', 'x.py']],
    [[]],
  ])('%j runs no script file', (view) => {
    expect(scriptFileRun(view)).toBeNull();
  });
});
