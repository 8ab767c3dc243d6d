// Which package-manager config commands write the user's own config (config-writes.ts), named as
// the reason says them: a write whatever the key (`npm config set registry x`, `pip config set k`,
// `poetry config k v`, `bundle config set k v`, `npm login`), a read (`config get`, `list`, one key
// alone), or a write into the project (`--local`, `--location=project`). Decisions on the same
// commands: adversarial-user-config-writes.
import { describe, expect, it } from 'vitest';
import { globalInstall } from '../../src/policy/global-installs.ts';

const writes = (command: string): string | null => globalInstall(command.split(' '), 0);

describe('user config writes, named', () => {
  it.each([
    ['npm config set registry x', 'npm config set registry'],
    ['npm config delete registry', 'npm config delete registry'],
    ['npm config edit', 'npm config edit'],
    ['npm config --location user set registry x', 'npm config set registry'],
    ['npm set registry x', 'npm config set registry'],
    ['npm c set registry x', 'npm config set registry'],
    ['npm config set prefix=/x --location=project', 'npm config set prefix'],
    ['npm login', 'npm login'],
    ['npm adduser --registry x', 'npm adduser'],
    ['pip config set global.index-url x', 'pip config set global.index-url'],
    ['pip config set global.index-url=x', 'pip config set global.index-url'],
    ['pip config set --global global.index-url x', 'pip config set global.index-url'],
    ['pip config --user set global.index-url x', 'pip config set global.index-url'],
    ['pip config unset global.index-url', 'pip config unset global.index-url'],
    ['pip config edit --editor vi', 'pip config edit'],
    ['pip config set', 'pip config set'],
    ['poetry config k v', 'poetry config'],
    ['poetry config set k', 'poetry config'],
    ['poetry config k -- --v', 'poetry config'],
    ['poetry config --unset k', 'poetry config'],
    ['poetry config --migrate', 'poetry config'],
    ['bundle config set k v', 'bundle config'],
    ['bundle config unset k', 'bundle config'],
    ['bundle config k v', 'bundle config'],
    ['bundle config --delete k', 'bundle config'],
  ])('%s writes the user config: %s', (command, named) => {
    expect(writes(command)).toBe(named);
  });

  it.each([
    'npm config get registry',
    'npm config list',
    'npm config set registry x --location=project',
    'npm login --location=project',
    'npm login --location=project --registry prefix',
    'npm adduser --location project --scope @x',
    'pip config get global.index-url',
    'pip config list',
    'poetry config k',
    'poetry config -v k',
    'poetry config k --',
    'poetry config -- k',
    'poetry config list',
    'poetry config --local k v',
    'bundle config get k',
    'bundle config list',
    'bundle config set k',
    'bundle config k',
    'bundle config --local k v',
  ])('%s writes no user config', (command) => {
    expect(writes(command)).toBeNull();
  });
});
