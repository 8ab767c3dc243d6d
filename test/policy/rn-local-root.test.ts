// RN-169 / RN-170 local roots and RN-609 scopeRoot labels.
import { describe, expect, it } from 'vitest';
import { scopeRootLabel, validateLocalRoot } from '../../src/policy/index.ts';
import { term } from './unit-fixtures.ts';

describe('RN-170 validateLocalRoot (lexical part)', () => {
  it('RN-170 accepts an absolute project folder and normalizes it', () => {
    expect(validateLocalRoot('/home/ana/projects/shop//')).toEqual({ ok: true, root: '/home/ana/projects/shop' });
  });
  it.each([
    ['projects/shop', 'root_not_absolute'],
    ['/home/ana/../../etc', 'root_has_dotdot'],
    ['', 'root_invalid'],
    ['/home/ana/x\u0000', 'root_invalid'],
    ['/', 'root_is_system_root'],
    ['/etc', 'root_is_system_root'],
    ['/usr/bin', 'root_is_system_root'],
    ['/var/lib/', 'root_is_system_root'],
    ['/home', 'root_is_system_root'],
    ['/tmp', 'root_is_system_root'],
  ])('RN-170 rejects %j with %s', (root, code) => {
    const r = validateLocalRoot(root);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.message.length).toBeGreaterThan(10);
    }
  });
  it('RN-170 never overlaps the gateway checkout (equal, inside, containing)', () => {
    const gatewayCheckout = '/opt/brabo/gateway';
    for (const root of ['/opt/brabo/gateway', '/opt/brabo/gateway/sub', '/opt/brabo']) {
      expect(validateLocalRoot(root, { gatewayCheckout })).toMatchObject({ ok: false, code: 'root_overlaps_gateway' });
    }
    expect(validateLocalRoot('/opt/brabo-projects/x', { gatewayCheckout }).ok).toBe(true);
  });
  it('RN-170 a 100 000-slash root is handled in one linear pass', () => {
    expect(validateLocalRoot('/home/ana' + '/'.repeat(100_000))).toEqual({ ok: true, root: '/home/ana' });
  });
});

describe('RN-169 a local root is the scope', () => {
  it('RN-169 paths under the local root are inside; outside it are not', () => {
    const o = { root: '/home/ana/projects/shop', permissions: { allow: ['Terminal(cat)'] } };
    expect(term('cat /home/ana/projects/shop/README.md', o).policy).toBe('auto_approve');
    expect(term('cat /home/ana/.ssh/id_rsa', o).reasonCode).toBe('ceiling_path_scope');
    expect(term('cat /home/ana/projects/shopping/x', o).reasonCode).toBe('ceiling_path_scope');
  });
});

describe('RN-609 scopeRoot', () => {
  it('RN-609 is the execution mode plus a relative id, never an absolute path', () => {
    expect(scopeRootLabel('container', 'shop-1a2b3c4d')).toBe('container:shop-1a2b3c4d');
    expect(scopeRootLabel('mounted', 'team/shop')).toBe('mounted:team/shop');
    expect(scopeRootLabel('runner', 'shop-1a2b3c4d')).toBe('runner:shop-1a2b3c4d');
  });
});
