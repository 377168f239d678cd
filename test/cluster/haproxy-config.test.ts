/**
 * deploy/haproxy.cfg is the generator's output (scripts/cluster.ts `haproxyConfig`) for three nodes, HAProxy
 * accepts it, and its cookie rule reads the node name the way the registry writes it.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import { findHaproxy, haproxyConfig } from '../../scripts/cluster.js';
import { nodeOfCookie } from '../../src/plugins/server-id.js';

const DEPLOY_CFG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));
const HAPROXY = findHaproxy();

const EXAMPLE_NODES = [1, 2, 3].map((i) => ({ name: `node${i}`, host: `10.0.0.1${i}`, port: 6543 }));

describe('deploy/haproxy.cfg', () => {
  it('is what haproxyConfig makes for three nodes (regenerate it when the rules change)', async () => {
    expect(await readFile(DEPLOY_CFG, 'utf8')).toBe(haproxyConfig({ bind: ':8080', nodes: EXAMPLE_NODES }));
  });

  it('routes by the node name as nodeOfCookie reads it, one rule per node, with checks, forwardfor and redispatch', () => {
    const cfg = haproxyConfig({ bind: '127.0.0.1:8080', nodes: EXAMPLE_NODES });
    expect(cfg).toContain('req.cook(SERVER_ID),regsub([.][^.]*[.][^.]*$,)');
    for (const n of EXAMPLE_NODES) {
      expect(cfg).toContain(`use-server ${n.name} if { var(txn.node) -m str ${n.name} }`);
      expect(cfg).toContain(`server ${n.name} ${n.host}:${n.port}`);
    }
    expect(cfg).toMatch(/option forwardfor/);
    expect(cfg).toMatch(/http-request del-header X-Forwarded-For/);
    expect(cfg).toMatch(/option redispatch/);
    expect(cfg).toMatch(/http-check send meth GET uri \/api\/0\.1\/health ver HTTP\/1\.1 hdr Host localhost/);
    // the same regular expression, applied as HAProxy does, agrees with nodeOfCookie (dotted names included)
    for (const name of ['node1', 'web-2', 'web1.example.org']) {
      const value = encodeURIComponent(
        fastifyCookie.sign(`${name}.lx2k3abc0123`, 'a-secret-of-some-length-0123456789'),
      );
      expect(value.replace(/[.][^.]*[.][^.]*$/, '')).toBe(name);
      expect(nodeOfCookie(value)).toBe(name);
    }
  });

  it('refuses node names the cookie cannot carry', () => {
    expect(() => haproxyConfig({ bind: ':80', nodes: [{ name: 'a b', host: '127.0.0.1', port: 1 }] })).toThrow();
    expect(() => haproxyConfig({ bind: ':80', nodes: [] })).toThrow();
  });

  it.skipIf(!HAPROXY)(
    HAPROXY ? 'is accepted by haproxy -c' : 'is accepted by haproxy -c (SKIPPED: haproxy is not installed)',
    async () => {
      const { stdout } = await promisify(execFile)(HAPROXY!, ['-c', '-f', DEPLOY_CFG]);
      expect(stdout).toMatch(/valid/i);
    },
  );
});
