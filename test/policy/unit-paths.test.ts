// RN-075 / RN-170: the lexical path helpers (paths.ts) by their exact results, and the decisions
// the four stream devices change.
import { describe, expect, it } from 'vitest';
import { hasDotDotSegment } from '../../src/policy/paths.ts';
import { isInside, resolveLexically, stripTrailingSlashes, validateLocalRoot } from '../../src/policy/index.ts';
import { MANUAL, auto, ask, c, runCases } from './adversarial-harness.ts';

describe('RN-075 resolveLexically', () => {
  it.each([
    ['/projects/app', 'src/x.ts', '/projects/app/src/x.ts'],
    ['/projects/app', './src/./x.ts', '/projects/app/src/x.ts'],
    ['/projects/app', '../lib', '/projects/lib'],
    ['/projects/app', '../../../..', '/'],
    ['/projects/app', 'a//b///c/', '/projects/app/a/b/c'],
    ['/projects/app', '/etc/passwd', '/etc/passwd'],
    ['/projects/app', '/a/../b', '/b'],
    ['/projects/app', '', '/projects/app'],
    ['/projects/app', '.', '/projects/app'],
    ['/projects/app/', 'x/..', '/projects/app'],
    ['/', '..', '/'],
    ['/', 'a', '/a'],
    ['/projects/app', '...', '/projects/app/...'],
    ['/projects/app', '..x/.y', '/projects/app/..x/.y'],
  ])('%s + %s -> %s', (base, path, resolved) => {
    expect(resolveLexically(base, path)).toBe(resolved);
  });
});

describe('stripTrailingSlashes', () => {
  it.each([
    ['/a/b/', '/a/b'],
    ['/a/b///', '/a/b'],
    ['/a/b', '/a/b'],
    ['/', '/'],
    ['///', '/'],
    ['a/', 'a'],
    ['a', 'a'],
    ['', ''],
  ])('%j -> %j', (path, stripped) => {
    expect(stripTrailingSlashes(path)).toBe(stripped);
  });
});

describe('RN-075 isInside', () => {
  it.each([
    ['/projects/app', '/projects/app', true],
    ['/projects/app/src', '/projects/app', true],
    ['/projects/apps', '/projects/app', false],
    ['/projects/ap', '/projects/app', false],
    ['/projects', '/projects/app', false],
    ['/etc', '/', true],
    ['/', '/', true],
    ['/projects/app-x/y', '/projects/app', false],
  ])('%s inside %s -> %s', (path, root, inside) => {
    expect(isInside(path, root)).toBe(inside);
  });
});

describe('RN-170 hasDotDotSegment', () => {
  it.each([
    ['..', true],
    ['/..', true],
    ['/a/..', true],
    ['/a/../b', true],
    ['../a', true],
    ['/a/...', false],
    ['/a/..b', false],
    ['/a/b..', false],
    ['/a/.', false],
    ['/a./.b', false],
    ['.', false],
    ['', false],
    ['/a//b', false],
  ])('%j -> %s', (path, has) => {
    expect(hasDotDotSegment(path)).toBe(has);
  });
});

describe('RN-170 validateLocalRoot: the messages a user reads', () => {
  it.each([
    ['', 'root_invalid', 'The project root is empty: give the absolute path of the project folder.'],
    ['   ', 'root_invalid', 'The project root is empty: give the absolute path of the project folder.'],
    ['/home/ana/x\u001f', 'root_invalid', 'The project root contains control characters: give a plain absolute path.'],
    ['/home/ana/\u007fx', 'root_invalid', 'The project root contains control characters: give a plain absolute path.'],
    ['/home/ana/\nx', 'root_invalid', 'The project root contains control characters: give a plain absolute path.'],
    [
      'projects/shop',
      'root_not_absolute',
      'The project root "projects/shop" is not absolute: give a path starting with /.',
    ],
    [
      '/home/ana/../shop',
      'root_has_dotdot',
      'The project root "/home/ana/../shop" contains "..": give the folder\'s path without "..".',
    ],
    [
      '/var/lib//',
      'root_is_system_root',
      'The project root "/var/lib" is a system folder: choose a folder of its own, e.g. /home/<you>/projects/<name>.',
    ],
  ])('%j -> %s', (root, code, message) => {
    expect(validateLocalRoot(root)).toEqual({ ok: false, code, message });
  });

  it('a root that is not a string is invalid', () => {
    expect(validateLocalRoot(undefined as unknown as string)).toMatchObject({ ok: false, code: 'root_invalid' });
    expect(validateLocalRoot(42 as unknown as string)).toMatchObject({ ok: false, code: 'root_invalid' });
  });

  it('printable characters next to the control range are accepted (space, ~, non-ASCII)', () => {
    for (const root of ['/home/ana/my project', '/home/ana/x~', '/home/ana/caf\u00e9', '/home/ana/!x'])
      expect(validateLocalRoot(root)).toEqual({ ok: true, root });
  });

  it('the gateway checkout overlap names both folders, normalized', () => {
    expect(validateLocalRoot('/opt/brabo/gateway/sub/', { gatewayCheckout: '/opt/brabo//gateway/' })).toEqual({
      ok: false,
      code: 'root_overlaps_gateway',
      message:
        'The project root "/opt/brabo/gateway/sub" overlaps the gateway\'s own checkout "/opt/brabo/gateway": choose a folder outside it.',
    });
  });

  it('an empty or absent gateway checkout is no overlap', () => {
    expect(validateLocalRoot('/srv/app/x', { gatewayCheckout: '' })).toEqual({ ok: true, root: '/srv/app/x' });
    expect(validateLocalRoot('/srv/app/x', {})).toEqual({ ok: true, root: '/srv/app/x' });
    expect(validateLocalRoot('/srv/app/x', { gatewayCheckout: '/srv/appx' })).toEqual({ ok: true, root: '/srv/app/x' });
  });
});

describe('RN-170 validateLocalRoot: a system folder is never a project root', () => {
  // The top of the Linux FHS and of macOS, and the system folders below them an agent's tools live in.
  it.each([
    ...['/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt'],
    ...['/opt', '/proc', '/root', '/run', '/sbin', '/snap', '/srv', '/sys', '/tmp', '/usr', '/var'],
    ...['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib32', '/usr/lib64', '/usr/libexec', '/usr/local'],
    ...['/usr/local/bin', '/usr/local/lib', '/usr/local/sbin', '/usr/share', '/usr/include', '/usr/src'],
    ...['/var/lib', '/var/log', '/var/run', '/var/tmp', '/var/cache', '/var/spool', '/var/mail'],
    ...['/var/lib/docker', '/etc/ssh', '/run/user'],
    ...['/System', '/Users', '/Library', '/Applications', '/private', '/private/tmp', '/private/var'],
  ])('%s', (root) => {
    expect(validateLocalRoot(root)).toMatchObject({ ok: false, code: 'root_is_system_root' });
  });

  it.each(['/home/ana', '/srv/app', '/var/lib/app', '/usr/local/src/app', '/Users/ana/code', '/opt/app'])(
    'a folder of its own below one is accepted: %s',
    (root) => {
      expect(validateLocalRoot(root)).toEqual({ ok: true, root });
    },
  );
});

// The four output streams are nobody's files: writing or reading them stays in scope. Any other
// device is outside the project folder.
runCases('RN-075 stream devices are in scope, other devices are not', MANUAL, [
  c('echo x > /dev/null', auto('permissions_allow')),
  c('echo x > /dev/stdout', auto('permissions_allow')),
  c('echo x 2> /dev/stderr', auto('permissions_allow')),
  c('cat /dev/stdin', auto('permissions_allow')),
  c('echo x > /dev/tty', ask('ceiling_path_scope')),
  c('echo x > /dev/zero', ask('ceiling_path_scope')),
  c('echo x > /dev/nullx', ask('ceiling_path_scope')),
  c('cat /dev/stdinx', ask('ceiling_path_scope')),
]);
