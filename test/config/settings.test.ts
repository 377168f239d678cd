/** Every setting, its default, and its flag (docs/decisions/0005-settings-from-one-schema.md). */
import { hostname } from 'node:os';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { helpText, settingsTable } from '../../src/config/help.js';
import { flagsToEnv, loadConfig } from '../../src/config/load.js';
import { flagOf, SETTING_NAMES, SETTINGS_SCHEMA } from '../../src/config/settings.js';
import { COOKIE_SECRET_PLACEHOLDER } from '../../src/config/values.js';

// docs/decisions/0005-settings-from-one-schema.md
describe('settings (record 0005)', () => {
  it('defaults serve a registry with no settings at all', () => {
    const config = loadConfig({}, []);
    expect(config).toMatchObject({
      server: { host: '127.0.0.1', port: 6543, trustProxy: false, logLevel: 'info', bodyLimit: 1_048_576 },
      store: { dataDir: './data', mongodbUri: undefined },
      auth: { file: 'data/auth.ini' },
      cookie: { serverId: hostname() },
      rateLimit: { max: 1200, timeWindow: 60_000, redisUrl: undefined },
      assetIdPrefix: 'UA-AR-DGF',
      timeZone: 'Europe/Kyiv',
      streams: { maxClients: 1000, maxUnread: 1_048_576, unreadTimeout: 30_000, heartbeat: 15_000 },
    });
    expect(config.cookie.secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the cookie secret is random per process unless set', () => {
    expect(loadConfig({}, []).cookie.secret).not.toBe(loadConfig({}, []).cookie.secret);
    const shared = 'shared-by-all-nodes-0123456789abcdef';
    expect(loadConfig({ COOKIE_SECRET: shared }, []).cookie.secret).toBe(shared);
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig(
      {
        HOST: '0.0.0.0',
        PORT: '8080',
        DATA_DIR: '/srv/registry',
        MONGODB_URI: 'mongodb://db/registry',
        SERVER_ID: 'node7',
        RATE_LIMIT_MAX: '50',
        RATE_LIMIT_WINDOW: '10 seconds',
        REDIS_URL: 'redis://127.0.0.1:6379',
        TRUST_PROXY: '127.0.0.1,10.0.0.0/8',
        ASSET_ID_PREFIX: 'UA-TEST',
        TZ: 'UTC',
        LOG_LEVEL: 'warn',
        BODY_LIMIT: '2048',
        STREAM_MAX_CLIENTS: '0',
        STREAM_MAX_UNREAD: '65536',
        STREAM_UNREAD_TIMEOUT: '1000',
        STREAM_HEARTBEAT: '500',
      },
      [],
    );
    expect(config).toMatchObject({
      server: { host: '0.0.0.0', port: 8080, trustProxy: '127.0.0.1,10.0.0.0/8', logLevel: 'warn', bodyLimit: 2048 },
      store: { dataDir: '/srv/registry', mongodbUri: 'mongodb://db/registry' },
      auth: { file: '/srv/registry/auth.ini' },
      cookie: { serverId: 'node7' },
      rateLimit: { max: 50, timeWindow: '10 seconds', redisUrl: 'redis://127.0.0.1:6379' },
      assetIdPrefix: 'UA-TEST',
      timeZone: 'UTC',
      streams: { maxClients: 0, maxUnread: 65_536, unreadTimeout: 1000, heartbeat: 500 },
    });
  });

  it('the document service: 50 MiB, its key beside the data, no external service, URLs on the request origin', () => {
    expect(loadConfig({ DATA_DIR: '/d' }, [])).toMatchObject({
      documentService: { maxBytes: 52_428_800, keyFile: '/d/ds-key.pem', downloadUrl: undefined, publicKeys: [] },
      hosts: { publicUrl: undefined },
    });
    const key = 'AB'.repeat(32);
    expect(
      loadConfig(
        {
          DS_MAX_BYTES: '1000',
          DS_KEY_FILE: '/etc/registry/ds.pem',
          DS_DOWNLOAD_URL: 'https://docs.example.org/ds',
          DS_PUBLIC_KEYS: `${key}, ${'cd'.repeat(32)}`,
          PUBLIC_URL: 'https://registry.example.org',
        },
        [],
      ),
    ).toMatchObject({
      documentService: {
        maxBytes: 1000,
        keyFile: '/etc/registry/ds.pem',
        downloadUrl: 'https://docs.example.org/ds',
        publicKeys: ['ab'.repeat(32), 'cd'.repeat(32)],
      },
      hosts: { publicUrl: 'https://registry.example.org' },
    });
  });

  it('metrics: off unless METRICS_PORT is set, on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}, [])).toMatchObject({ metrics: { port: undefined, host: '127.0.0.1' } });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, [])).toMatchObject({
      metrics: { port: 9464, host: '0.0.0.0' },
    });
    expect(loadConfig({}, ['--metrics-port', '0']).metrics.port).toBe(0);
  });

  it.each([
    ['METRICS_PORT', '65536', 'METRICS_PORT must be a whole number from 0 to 65535'],
    ['METRICS_PORT', 'on', 'METRICS_PORT must be a whole number from 0 to 65535'],
    ['DS_MAX_BYTES', '0', 'DS_MAX_BYTES must be a whole number, at least 1'],
    ['DS_PUBLIC_KEYS', 'abc', 'DS_PUBLIC_KEYS must be keys of 64 hexadecimal characters, comma-separated'],
    [
      'DS_DOWNLOAD_URL',
      'ftp://docs.example.org',
      'DS_DOWNLOAD_URL must be an http or https URL without query, fragment or final /',
    ],
    ['PUBLIC_URL', 'https://registry.example.org/registry', 'PUBLIC_URL must be an http or https origin'],
    ['PUBLIC_URL', 'https://registry.example.org?x=1', 'PUBLIC_URL must be an http or https origin'],
    ['PUBLIC_URL', 'ftp://registry.example.org', 'PUBLIC_URL must be an http or https origin'],
    ['ALLOWED_HOSTS', 'registry.example.org:443', 'ALLOWED_HOSTS must be host names without ports, comma-separated'],
    ['REQUEST_TIMEOUT', '1.5', 'REQUEST_TIMEOUT must be a whole number, at least 1'],
    ['KEEP_ALIVE_TIMEOUT', '0', 'KEEP_ALIVE_TIMEOUT must be a whole number, at least 1'],
    ['MAX_CONNECTIONS_PER_CLIENT', '0', 'MAX_CONNECTIONS_PER_CLIENT must be a whole number, at least 1'],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value }, [])).toThrow(message);
  });

  it('hardening: 30 s for a request, 5 s kept alive, 256 connections per client, only the loopback names', () => {
    expect(loadConfig({}, [])).toMatchObject({
      connections: { requestTimeout: 30_000, keepAliveTimeout: 5000, maxPerClient: 256 },
      hosts: { allowedHosts: [], publicUrl: undefined },
    });
    expect(
      loadConfig(
        {
          REQUEST_TIMEOUT: '1000',
          KEEP_ALIVE_TIMEOUT: '2000',
          MAX_CONNECTIONS_PER_CLIENT: '8',
          ALLOWED_HOSTS: 'Registry.Example.org, node1.internal',
          PUBLIC_URL: 'https://registry.example.org/',
        },
        [],
      ),
    ).toMatchObject({
      connections: { requestTimeout: 1000, keepAliveTimeout: 2000, maxPerClient: 8 },
      hosts: { allowedHosts: ['registry.example.org', 'node1.internal'], publicUrl: 'https://registry.example.org' },
    });
  });

  it('CORS_ORIGINS: none by default; a comma-separated list of origins; a path or a bare host is refused', () => {
    expect(loadConfig({}, []).cors.origins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://broker.example.org, http://127.0.0.1:8080' }, []).cors.origins).toEqual([
      'https://broker.example.org',
      'http://127.0.0.1:8080',
    ]);
    for (const value of ['https://broker.example.org/', 'broker.example.org', 'https://a.example.org/page']) {
      expect(() => loadConfig({ CORS_ORIGINS: value }, [])).toThrow('CORS_ORIGINS must be origins');
    }
  });

  it('AUTH_FILE overrides the key file inside DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/d', AUTH_FILE: '/etc/registry/keys.ini' }, []).auth.file).toBe(
      '/etc/registry/keys.ini',
    );
  });

  it('a flag mirrors each setting and wins over the environment', () => {
    const config = loadConfig({ PORT: '1111', TZ: 'UTC' }, [
      '--port',
      '2222',
      '--tz=Europe/Warsaw',
      '--data-dir',
      '/tmp/x',
    ]);
    expect(config.server.port).toBe(2222);
    expect(config.timeZone).toBe('Europe/Warsaw');
    expect(config.store.dataDir).toBe('/tmp/x');
    for (const name of SETTING_NAMES) {
      const flag = flagOf(name);
      expect(flagsToEnv([flag, 'v'])).toEqual({ [name]: 'v' });
    }
  });

  it('the rate window takes milliseconds or words', () => {
    expect(loadConfig({ RATE_LIMIT_WINDOW: '1500' }, []).rateLimit.timeWindow).toBe(1500);
    expect(loadConfig({ RATE_LIMIT_WINDOW: '1 minute' }, []).rateLimit.timeWindow).toBe('1 minute');
  });

  it('TRUST_PROXY takes true, false, a hop count or addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }, []).server.trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }, []).server.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }, []).server.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }, []).server.trustProxy).toBe('127.0.0.1');
  });

  it('TRUST_PROXY takes addresses and CIDR ranges, comma-separated, and refuses anything else (record 0062)', () => {
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16,::1 , fd00::/8' }, []).server.trustProxy).toBe(
      '10.0.0.5,10.1.0.0/16,::1,fd00::/8',
    );
    for (const value of ['loopback', '10.0.0.1,evil', '10.0.0.0/33', '::1/129', '10.0.0.256', '10.0.0.1,', ':::']) {
      expect(() => loadConfig({ TRUST_PROXY: value }, []), value).toThrow(/^TRUST_PROXY/);
    }
  });

  it.each([
    ['PORT', 'eighty'],
    ['RATE_LIMIT_MAX', '-1'],
    ['BODY_LIMIT', '1.5'],
    ['STREAM_MAX_CLIENTS', 'many'],
    ['STREAM_HEARTBEAT', '0'],
    ['STREAM_UNREAD_TIMEOUT', '0'],
  ])('refuses %s=%s with a message naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value }, [])).toThrow(name);
  });

  it('refuses a value of the wrong kind with the setting, what it takes and what was given', () => {
    expect(() => loadConfig({ PORT: 'eighty' }, [])).toThrow(
      'PORT must be a whole number from 0 to 65535 (port the HTTP server listens on), got "eighty"',
    );
    expect(() => loadConfig({ RATE_LIMIT_WINDOW: '0' }, [])).toThrow(
      /^RATE_LIMIT_WINDOW must be milliseconds, or words/,
    );
    expect(() => loadConfig({ TZ: 'Mars/Olympus' }, [])).toThrow(/^TZ must be a time zone name/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' }, [])).toThrow(/^LOG_LEVEL must be one of fatal, error, warn, info/);
    expect(() => loadConfig({ VALIDATE_REPLIES: 'yes' }, [])).toThrow(/^VALIDATE_REPLIES must be true or false/);
  });

  it('an empty value counts as unset', () => {
    const config = loadConfig({ PORT: '', MONGODB_URI: '', REDIS_URL: '', TRUST_PROXY: '' }, []);
    expect(config).toMatchObject({
      server: { port: 6543, trustProxy: false },
      store: { mongodbUri: undefined },
      rateLimit: { redisUrl: undefined },
    });
  });

  // docs/decisions/0050-operator-hardening.md
  it('refuses a COOKIE_SECRET shorter than 32 bytes, without repeating it (record 0050)', () => {
    const refusal =
      /^COOKIE_SECRET must be text of at least 32 bytes \(openssl rand -hex 32\), not the example's placeholder/;
    expect(() => loadConfig({ COOKIE_SECRET: 'a'.repeat(31) }, [])).toThrow(refusal);
    expect(() => loadConfig({ COOKIE_SECRET: 'a'.repeat(31) }, [])).toThrow(/got 31 bytes$/);
    expect(() => loadConfig({}, ['--cookie-secret', 'short-secret'])).not.toThrow('short-secret');
    expect(() => loadConfig({}, ['--cookie-secret', 'short-secret'])).toThrow(refusal);
    // Bytes, not characters: 11 Cyrillic letters are 22 bytes, 16 of them 32.
    expect(() => loadConfig({ COOKIE_SECRET: 'ж'.repeat(11) }, [])).toThrow(/got 22 bytes$/);
    expect(loadConfig({ COOKIE_SECRET: 'ж'.repeat(16) }, []).cookie.secret).toBe('ж'.repeat(16));
    expect(loadConfig({ COOKIE_SECRET: 'a'.repeat(32) }, []).cookie.secret).toBe('a'.repeat(32));
  });

  it("refuses the deployment example's placeholder COOKIE_SECRET (record 0050)", async () => {
    const example = await readFile('deploy/registry.env.example', 'utf8');
    const placeholder = /^COOKIE_SECRET=(.*)$/m.exec(example)?.[1];
    expect(placeholder).toBe(COOKIE_SECRET_PLACEHOLDER);
    expect(() => loadConfig({ COOKIE_SECRET: placeholder }, [])).toThrow(/got the example's placeholder$/);
    // Refused whatever its length would allow: padded to 32 bytes, another text, accepted.
    expect(loadConfig({ COOKIE_SECRET: `${placeholder}-x` }, []).cookie.secret).toBe(`${placeholder}-x`);
  });

  it('refuses a flag that names no setting', () => {
    expect(() => loadConfig({}, ['--prot', '8080'])).toThrow('unknown flag --prot');
  });

  it('VALIDATE_REPLIES is off unless set, and takes true or false', () => {
    expect(loadConfig({}, []).server.validateReplies).toBe(false);
    expect(loadConfig({ VALIDATE_REPLIES: 'true' }, []).server.validateReplies).toBe(true);
    expect(loadConfig({ VALIDATE_REPLIES: 'true' }, ['--validate-replies', 'false']).server.validateReplies).toBe(
      false,
    );
  });

  it('CLOSE_GRACE_DELAY bounds a shutdown: 10 seconds unless set', () => {
    expect(loadConfig({}, []).server.closeGraceDelay).toBe(10_000);
    expect(loadConfig({ CLOSE_GRACE_DELAY: '2500' }, []).server.closeGraceDelay).toBe(2500);
  });

  it('every setting says what it means', () => {
    for (const name of SETTING_NAMES) {
      expect((SETTINGS_SCHEMA.properties![name] as { description?: string }).description, name).toBeTruthy();
    }
  });

  it('--help names every setting and its flag', () => {
    const help = helpText();
    for (const name of SETTING_NAMES) expect(help).toContain(`  ${name}, ${flagOf(name)}\n`);
  });

  it("docs/settings.md's table is the one the schema gives (npm run generate writes it)", async () => {
    const page = await readFile(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    const section = /<!-- settings:start[^>]*-->\n([\s\S]*?)\n<!-- settings:end -->/.exec(page);
    expect(section, 'docs/settings.md has the settings markers').not.toBeNull();
    expect(section![1]).toBe(settingsTable());
  });
});
