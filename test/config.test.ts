/** decisions.md §1: every setting, its default, and the command-line flag that mirrors it. */
import { hostname } from 'node:os';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { flagOf, flagsToEnv, helpText, loadConfig, SETTING_NAMES, SETTINGS_SCHEMA, settingsTable } from '../src/config.js';

describe('settings (decisions.md §1)', () => {
  it('defaults serve a registry with no settings at all', () => {
    const config = loadConfig({}, []);
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 6543,
      dataDir: './data',
      mongodbUri: undefined,
      authFile: 'data/auth.ini',
      serverId: hostname(),
      rateLimitMax: 1200,
      rateLimitWindow: 60_000,
      redisUrl: undefined,
      trustProxy: false,
      assetIdPrefix: 'UA-AR-DGF',
      timeZone: 'Europe/Kyiv',
      logLevel: 'info',
      bodyLimit: 1_048_576,
      streamMaxClients: 1000,
      streamMaxUnread: 1_048_576,
      streamUnreadTimeout: 30_000,
      streamHeartbeat: 15_000,
    });
    expect(config.cookieSecret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the cookie secret is random per process unless set', () => {
    expect(loadConfig({}, []).cookieSecret).not.toBe(loadConfig({}, []).cookieSecret);
    expect(loadConfig({ COOKIE_SECRET: 'shared-by-all-nodes' }, []).cookieSecret).toBe('shared-by-all-nodes');
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
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/srv/registry',
      authFile: '/srv/registry/auth.ini',
      mongodbUri: 'mongodb://db/registry',
      serverId: 'node7',
      rateLimitMax: 50,
      rateLimitWindow: '10 seconds',
      redisUrl: 'redis://127.0.0.1:6379',
      trustProxy: '127.0.0.1,10.0.0.0/8',
      assetIdPrefix: 'UA-TEST',
      timeZone: 'UTC',
      logLevel: 'warn',
      bodyLimit: 2048,
      streamMaxClients: 0,
      streamMaxUnread: 65_536,
      streamUnreadTimeout: 1000,
      streamHeartbeat: 500,
    });
  });

  it('the document service: 50 MiB, its key beside the data, no external service, URLs on the request origin', () => {
    expect(loadConfig({ DATA_DIR: '/d' }, [])).toMatchObject({
      dsMaxBytes: 52_428_800,
      dsKeyFile: '/d/ds-key.pem',
      dsDownloadUrl: undefined,
      dsPublicKeys: [],
      publicUrl: undefined,
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
      dsMaxBytes: 1000,
      dsKeyFile: '/etc/registry/ds.pem',
      dsDownloadUrl: 'https://docs.example.org/ds',
      dsPublicKeys: ['ab'.repeat(32), 'cd'.repeat(32)],
      publicUrl: 'https://registry.example.org',
    });
  });

  it('metrics: off unless METRICS_PORT is set, on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}, [])).toMatchObject({ metricsPort: undefined, metricsHost: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, [])).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0' });
    expect(loadConfig({}, ['--metrics-port', '0']).metricsPort).toBe(0);
  });

  it.each([
    ['METRICS_PORT', '65536', 'METRICS_PORT must be a whole number from 0 to 65535'],
    ['METRICS_PORT', 'on', 'METRICS_PORT must be a whole number from 0 to 65535'],
    ['DS_MAX_BYTES', '0', 'DS_MAX_BYTES must be a whole number, at least 1'],
    ['DS_PUBLIC_KEYS', 'abc', 'DS_PUBLIC_KEYS must be keys of 64 hexadecimal characters, comma-separated'],
    ['DS_DOWNLOAD_URL', 'ftp://docs.example.org', 'DS_DOWNLOAD_URL must be an http or https URL without query, fragment or final /'],
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
      requestTimeout: 30_000,
      keepAliveTimeout: 5000,
      maxConnectionsPerClient: 256,
      allowedHosts: [],
      publicUrl: undefined,
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
      requestTimeout: 1000,
      keepAliveTimeout: 2000,
      maxConnectionsPerClient: 8,
      allowedHosts: ['registry.example.org', 'node1.internal'],
      publicUrl: 'https://registry.example.org',
    });
  });

  it('CORS_ORIGINS: none by default; a comma-separated list of origins; a path or a bare host is refused', () => {
    expect(loadConfig({}, []).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://broker.example.org, http://127.0.0.1:8080' }, []).corsOrigins).toEqual([
      'https://broker.example.org',
      'http://127.0.0.1:8080',
    ]);
    for (const value of ['https://broker.example.org/', 'broker.example.org', 'https://a.example.org/page']) {
      expect(() => loadConfig({ CORS_ORIGINS: value }, [])).toThrow('CORS_ORIGINS must be origins');
    }
  });

  it('AUTH_FILE overrides the key file inside DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/d', AUTH_FILE: '/etc/registry/keys.ini' }, []).authFile).toBe('/etc/registry/keys.ini');
  });

  it('a flag mirrors each setting and wins over the environment', () => {
    const config = loadConfig({ PORT: '1111', TZ: 'UTC' }, ['--port', '2222', '--tz=Europe/Warsaw', '--data-dir', '/tmp/x']);
    expect(config.port).toBe(2222);
    expect(config.timeZone).toBe('Europe/Warsaw');
    expect(config.dataDir).toBe('/tmp/x');
    for (const name of SETTING_NAMES) {
      const flag = flagOf(name);
      expect(flagsToEnv([flag, 'v'])).toEqual({ [name]: 'v' });
    }
  });

  it('the rate window takes milliseconds or words', () => {
    expect(loadConfig({ RATE_LIMIT_WINDOW: '1500' }, []).rateLimitWindow).toBe(1500);
    expect(loadConfig({ RATE_LIMIT_WINDOW: '1 minute' }, []).rateLimitWindow).toBe('1 minute');
  });

  it('TRUST_PROXY takes true, false, a hop count or addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }, []).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }, []).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }, []).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }, []).trustProxy).toBe('127.0.0.1');
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
    expect(() => loadConfig({ RATE_LIMIT_WINDOW: '0' }, [])).toThrow(/^RATE_LIMIT_WINDOW must be milliseconds, or words/);
    expect(() => loadConfig({ TZ: 'Mars/Olympus' }, [])).toThrow(/^TZ must be a time zone name/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' }, [])).toThrow(/^LOG_LEVEL must be one of fatal, error, warn, info/);
    expect(() => loadConfig({ VALIDATE_REPLIES: 'yes' }, [])).toThrow(/^VALIDATE_REPLIES must be true or false/);
  });

  it('an empty value counts as unset', () => {
    const config = loadConfig({ PORT: '', MONGODB_URI: '', REDIS_URL: '', TRUST_PROXY: '' }, []);
    expect(config).toMatchObject({ port: 6543, mongodbUri: undefined, redisUrl: undefined, trustProxy: false });
  });

  it('refuses a flag that names no setting', () => {
    expect(() => loadConfig({}, ['--prot', '8080'])).toThrow('unknown flag --prot');
  });

  it('VALIDATE_REPLIES is off unless set, and takes true or false', () => {
    expect(loadConfig({}, []).validateReplies).toBe(false);
    expect(loadConfig({ VALIDATE_REPLIES: 'true' }, []).validateReplies).toBe(true);
    expect(loadConfig({ VALIDATE_REPLIES: 'true' }, ['--validate-replies', 'false']).validateReplies).toBe(false);
  });

  it('CLOSE_GRACE_DELAY bounds a shutdown: 10 seconds unless set', () => {
    expect(loadConfig({}, []).closeGraceDelay).toBe(10_000);
    expect(loadConfig({ CLOSE_GRACE_DELAY: '2500' }, []).closeGraceDelay).toBe(2500);
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

  it("the README's settings table is the one the schema gives (npm run generate writes it)", async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = /<!-- settings:start[^>]*-->\n([\s\S]*?)\n<!-- settings:end -->/.exec(readme);
    expect(section, 'README.md has the settings markers').not.toBeNull();
    expect(section![1]).toBe(settingsTable());
  });
});
