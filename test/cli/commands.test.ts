/**
 * `claimrights-registry` and its subcommands (docs/decisions/0047-one-command-for-the-operator.md): `--help` on
 * each, the exit codes of a wrong call, the refusals that leave everything as it was (record 0049), the refused
 * COOKIE_SECRET (record 0050). Run from the source entry; the production install is checked by hand
 * (docs/operations.md).
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COOKIE_SECRET_PLACEHOLDER } from '../../src/config/values.js';
import { useScratch } from '../helpers/server.js';
import { runCommand } from './fixtures/command.js';

const SUBCOMMANDS = ['serve', 'import', 'mirror', 'backup', 'restore'] as const;

describe('claimrights-registry (record 0047)', () => {
  const scratch = useScratch();

  it('--help on each subcommand prints its usage and flags and exits 0', async () => {
    const runs = await Promise.all([
      runCommand(['--help']),
      ...SUBCOMMANDS.map((name) => runCommand([name, '--help'])),
    ]);
    const [overview, ...each] = runs;
    expect(overview!.code, overview!.stderr).toBe(0);
    for (const name of SUBCOMMANDS) expect(overview!.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    for (const [i, run] of each.entries()) {
      const name = SUBCOMMANDS[i]!;
      expect(run.code, `${name}: ${run.stderr}`).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(new RegExp(`^usage: claimrights-registry \\[?${name}`));
    }
    // serve's are the registry's settings; import, backup and restore take them too; mirror has its own.
    expect(each[0]!.stdout).toContain('DATA_DIR, --data-dir');
    expect(each[1]!.stdout).toContain('--from URL');
    expect(each[2]!.stdout).toContain('--log-vkey KEY');
    expect(each[3]!.stdout).toContain('mongodump');
    expect(each[4]!.stdout).toContain('empty or missing');
  }, 180_000);

  it('an unknown subcommand or flag exits 2 with a message', async () => {
    const dataDir = await scratch.dir();
    const env = { DATA_DIR: join(dataDir, 'unused') };
    const [subcommand, serve, defaultServe, importing, mirror, backup, restore] = await Promise.all([
      runCommand(['frobnicate']),
      runCommand(['serve', '--frob', '1'], env),
      runCommand(['--frob', '1'], env),
      runCommand(['import', '--from', 'http://127.0.0.1:9/db', '--frob', '1'], env),
      runCommand(['mirror', '--from', 'http://127.0.0.1:9', '--to', join(dataDir, 'm'), '--frob', '1']),
      runCommand(['backup', join(dataDir, 'b'), '--frob', '1'], env),
      runCommand(['restore', join(dataDir, 'b'), '--frob', '1'], env),
    ]);
    expect(subcommand.code).toBe(2);
    expect(subcommand.stderr).toContain('unknown subcommand "frobnicate"');
    for (const run of [serve, defaultServe, importing, mirror, backup, restore]) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('unknown flag --frob');
    }
    // Nothing was started or written.
    expect(existsSync(join(dataDir, 'unused'))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 180_000);

  // docs/decisions/0050-operator-hardening.md
  it.each([
    ['shorter than 32 bytes', 'x'.repeat(31), 'got 31 bytes'],
    ["the example's placeholder", COOKIE_SECRET_PLACEHOLDER, "got the example's placeholder"],
  ])(
    'a COOKIE_SECRET %s refuses to start, saying why (record 0050)',
    async (_, secret, reason) => {
      const dataDir = await scratch.dir();
      const run = await runCommand(['serve', '--port', '0'], { DATA_DIR: dataDir, COOKIE_SECRET: secret });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('registry failed to start: COOKIE_SECRET must be text of at least 32 bytes');
      expect(run.stderr).toContain(reason);
      expect(run.stdout + run.stderr).not.toContain(secret);
      // Refused before anything was made: no keys, no store.
      expect(readdirSync(dataDir)).toEqual([]);
    },
    60_000,
  );
});

describe('backup and restore refusals (record 0049)', () => {
  const scratch = useScratch();

  it('backup with MONGODB_URI set exits 2 naming mongodump', async () => {
    const dir = await scratch.dir();
    const run = await runCommand(['backup', join(dir, 'b.tgz')], { MONGODB_URI: 'mongodb://127.0.0.1:9/registry' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mongodump');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('backup of a folder without a store exits 2', async () => {
    const dir = await scratch.dir();
    const run = await runCommand(['backup', join(dir, 'b.tgz')], { DATA_DIR: join(dir, 'none') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no embedded store');
  });

  it('restore into a non-empty DATA_DIR exits 2 and changes nothing', async () => {
    const dir = await scratch.dir();
    const dataDir = join(dir, 'data');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'notes.txt'), 'kept');
    await writeFile(join(dir, 'b.tgz'), 'not even read');
    const run = await runCommand(['restore', join(dir, 'b.tgz')], { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not empty');
    expect(readdirSync(dataDir)).toEqual(['notes.txt']);
    expect(await readFile(join(dataDir, 'notes.txt'), 'utf8')).toBe('kept');
  });

  it('restore of a file that is no backup exits 1 and leaves DATA_DIR as it was', async () => {
    const dir = await scratch.dir();
    await writeFile(join(dir, 'b.tgz'), 'not a backup at all');
    const empty = join(dir, 'empty');
    await mkdir(empty);
    const [intoMissing, intoEmpty, missingFile] = await Promise.all([
      runCommand(['restore', join(dir, 'b.tgz')], { DATA_DIR: join(dir, 'missing') }),
      runCommand(['restore', join(dir, 'b.tgz')], { DATA_DIR: empty }),
      runCommand(['restore', join(dir, 'nowhere.tgz')], { DATA_DIR: join(dir, 'missing2') }),
    ]);
    for (const run of [intoMissing, intoEmpty, missingFile]) {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('nothing was restored');
    }
    expect(existsSync(join(dir, 'missing'))).toBe(false);
    expect(existsSync(join(dir, 'missing2'))).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
  }, 60_000);
});
