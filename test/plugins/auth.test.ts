/** API keys and roles: spec "Authentication", docs/decisions/0006-api-keys-and-roles.md. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseIni } from 'ini';
import { KEYS, useScratch, useServer } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { expectErrors } from '../helpers/expect.js';

const ASSETS = '/api/0.1/assets';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const { broker } = useServer();

function basic(userPass: string): string {
  return `Basic ${Buffer.from(userPass).toString('base64')}`;
}

describe('writes need a known key (401)', () => {
  it('no key → 401 with WWW-Authenticate: Basic', async () => {
    const res = await broker.post(ASSETS, { data: validAsset() }, { key: null });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic\b/);
    expect(res.json.status).toBe('error');
  });

  it('an unknown key → 401 with WWW-Authenticate: Basic', async () => {
    for (const key of ['ffffffffffffffffffffffffffffffff', 'broker', '']) {
      const res = await broker.post(ASSETS, { data: validAsset() }, { key });
      expect(res.status, `key ${JSON.stringify(key)}`).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic\b/);
    }
  });

  it('a key used as the password (empty user name) is not a key → 401', async () => {
    const res = await broker.post(
      ASSETS,
      { data: validAsset() },
      { key: null, headers: { authorization: basic(`:${KEYS.broker}`) } },
    );
    expect(res.status).toBe(401);
  });

  it('an unknown key on PATCH → 401', async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(
      `${ASSETS}/${created.id}`,
      { data: { status: 'pending' } },
      { key: 'nope', token: created.token },
    );
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic\b/);
    expect((await broker.get(`${ASSETS}/${created.id}`)).json.data.status).toBe('draft');
  });
});

describe('key forms', () => {
  it('Bearer <key> is accepted', async () => {
    const res = await broker.post(
      ASSETS,
      { data: validAsset() },
      { key: null, headers: { authorization: `Bearer ${KEYS.broker}` } },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.owner).toBe('broker');
  });

  it('the password part is ignored', async () => {
    for (const pass of ['', 'anything', 'x:y:z']) {
      const res = await broker.post(
        ASSETS,
        { data: validAsset() },
        { key: null, headers: { authorization: basic(`${KEYS.broker}:${pass}`) } },
      );
      expect(res.status, pass).toBe(201);
    }
    const noColon = await broker.post(
      ASSETS,
      { data: validAsset() },
      { key: null, headers: { authorization: basic(KEYS.broker2) } },
    );
    expect(noColon.status).toBe(201);
    expect(noColon.json.data.owner).toBe('broker2');
  });
});

// docs/decisions/0006-api-keys-and-roles.md
describe('Basic credentials must be valid base64 (record 0006)', () => {
  const valid = Buffer.from(`${KEYS.broker}:`).toString('base64');
  const invalid = [
    `${valid}garbage`,
    `${valid}!`,
    `${valid} x`,
    `${valid}=`,
    `${valid.slice(0, -1)}`,
    `*${valid}`,
    `${valid.slice(0, 8)}\t${valid.slice(8)}`,
  ];

  it.each(invalid)('Basic %j is no key: 401 on a write', async (credentials) => {
    const res = await broker.post(
      ASSETS,
      { data: validAsset() },
      { key: null, headers: { authorization: `Basic ${credentials}` } },
    );
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic\b/);
  });

  it('and is ignored on a read', async () => {
    for (const credentials of invalid) {
      const res = await broker.get(`${ASSETS}?limit=1`, {
        key: null,
        headers: { authorization: `Basic ${credentials}` },
      });
      expect(res.status, credentials).toBe(200);
    }
  });

  it('valid base64, padded or not needing it, is read', async () => {
    for (const pass of ['', 'a', 'ab', 'abc']) {
      const res = await broker.post(
        ASSETS,
        { data: validAsset() },
        { key: null, headers: { authorization: basic(`${KEYS.broker}:${pass}`) } },
      );
      expect(res.status, pass).toBe(201);
    }
  });
});

describe('roles come from the INI sections', () => {
  it('brokers create; concierge and admins may not create (403)', async () => {
    expect((await broker.post(ASSETS, { data: validAsset() })).status).toBe(201);
    expect((await broker.as(KEYS.broker2).post(ASSETS, { data: validAsset() })).status).toBe(201);
    expect((await broker.as(KEYS.concierge).post(ASSETS, { data: validAsset() })).status).toBe(403);
  });

  it('concierge moves pending → verification; a broker without the token may not', async () => {
    const created = await createAsset(broker);
    await toPending(broker, created.id, created.token);
    const denied = await broker.as(KEYS.broker2).patch(`${ASSETS}/${created.id}`, { data: { status: 'verification' } });
    expect(denied.status).toBe(403);
    const ownerDenied = await broker.patch(
      `${ASSETS}/${created.id}`,
      { data: { status: 'verification' } },
      { token: created.token },
    );
    expect(ownerDenied.status).toBe(403);
    const ok = await broker.as(KEYS.concierge).patch(`${ASSETS}/${created.id}`, { data: { status: 'verification' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data.status).toBe('verification');
  });

  it('admins move draft → pending without the owner token and may set mode', async () => {
    const created = await createAsset(broker);
    const admin = broker.as(KEYS.admin);
    const res = await admin.patch(`${ASSETS}/${created.id}`, { data: { status: 'pending', mode: 'test' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.status).toBe('pending');
    expect(res.json.data.mode).toBe('test');
    // owner stays the creating broker
    expect(res.json.data.owner).toBe('broker');
  });
});

describe('owner token', () => {
  it("a broker without the owner token → 403 Can't update asset in current (draft) status", async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(`${ASSETS}/${created.id}`, { data: { status: 'pending' } });
    expectErrors(res, 403, [
      { location: 'body', name: 'data', description: "Can't update asset in current (draft) status" },
    ]);
    expect((await broker.get(`${ASSETS}/${created.id}`)).json.data.status).toBe('draft');
  });

  it('a wrong token → 403', async () => {
    const created = await createAsset(broker);
    const other = await createAsset(broker);
    const res = await broker.patch(`${ASSETS}/${created.id}`, { data: { title: 'x' } }, { token: other.token });
    expect(res.status).toBe(403);
  });

  it('another broker holding the right token → 403 (owner = same account and token)', async () => {
    const created = await createAsset(broker);
    const res = await broker
      .as(KEYS.broker2)
      .patch(`${ASSETS}/${created.id}`, { data: { title: 'x' } }, { token: created.token });
    expect(res.status).toBe(403);
    expect((await broker.get(`${ASSETS}/${created.id}`)).json.data.title).toBe('Земля для космодрому');
  });

  it('the token works by query acc_token', async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(`${ASSETS}/${created.id}`, { data: { title: 'query' } }, { token: created.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.title).toBe('query');
  });

  it('the token works by header X-Access-Token', async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(
      `${ASSETS}/${created.id}`,
      { data: { title: 'header' } },
      { headers: { 'x-access-token': created.token } },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.title).toBe('header');
  });

  it('the token works in the body as access.token', async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(`${ASSETS}/${created.id}`, {
      data: { title: 'body' },
      access: { token: created.token },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.title).toBe('body');
    expect(res.json.access).toBeUndefined();
  });
});

describe('AUTH_FILE absent: created with fresh random keys printed once', () => {
  // The server processes' folder and database; removed after the processes are gone (hooks after run in reverse).
  const scratch = useScratch();

  async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
  }

  interface Running {
    child: ChildProcess;
    stdout: () => string;
    url: string;
  }

  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  async function launch(dataDir: string, mongodbUri: string | undefined): Promise<Running> {
    const port = await freePort();
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    delete env.AUTH_FILE;
    if (mongodbUri) env.MONGODB_URI = mongodbUri;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${err}${out}`);
      try {
        const res = await fetch(`${url}/api/0.1/health`);
        if (res.status === 200) break;
      } catch {
        /* not yet listening */
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${err}${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { child, stdout: () => out, url };
  }

  async function stop(r: Running): Promise<void> {
    if (r.child.exitCode !== null || r.child.signalCode !== null) return;
    const exited = new Promise((resolve) => r.child.once('exit', resolve));
    r.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  }

  it('first start writes auth.ini with one key per role and prints them; a restart prints none', async () => {
    const dataDir = await scratch.dir('registry-auth-');
    const mongodbUri = scratch.mongoUri();
    const first = await launch(dataDir, mongodbUri);
    let keys: { broker: string; concierge: string; administrator: string };
    try {
      const file = join(dataDir, 'auth.ini');
      const ini = parseIni(await readFile(file, 'utf8')) as Record<string, Record<string, string>>;
      expect(Object.keys(ini).sort()).toEqual(['admins', 'brokers', 'concierge']);
      const all = [...Object.values(ini.brokers!), ...Object.values(ini.concierge!), ...Object.values(ini.admins!)];
      expect(all.length).toBeGreaterThanOrEqual(3);
      for (const key of all) {
        expect(key).toMatch(/^[0-9a-f]{32,}$/);
        expect(first.stdout()).toContain(key);
      }
      expect(new Set(all).size).toBe(all.length);
      expect(all).not.toContain(KEYS.broker);
      const mode = (await stat(file)).mode & 0o777;
      expect(mode & 0o077).toBe(0);
      keys = {
        broker: Object.values(ini.brokers!)[0]!,
        concierge: Object.values(ini.concierge!)[0]!,
        administrator: Object.values(ini.admins!)[0]!,
      };
      // The fresh broker key works; the concierge key may not create.
      const client = new Client(first.url, { key: keys.broker });
      const created = await client.post(ASSETS, { data: validAsset() });
      expect(created.status, created.text).toBe(201);
      expect(created.json.data.owner).toBe(Object.keys(ini.brokers!)[0]);
      expect((await client.post(ASSETS, { data: validAsset() }, { key: keys.concierge })).status).toBe(403);
    } finally {
      await stop(first);
    }
    const before = await readFile(join(dataDir, 'auth.ini'), 'utf8');
    const second = await launch(dataDir, mongodbUri);
    try {
      for (const key of Object.values(keys)) expect(second.stdout()).not.toContain(key);
      expect(await readFile(join(dataDir, 'auth.ini'), 'utf8')).toBe(before);
      const client = new Client(second.url, { key: keys.broker });
      expect((await client.post(ASSETS, { data: validAsset() })).status).toBe(201);
    } finally {
      await stop(second);
    }
  }, 90_000);
});
