/**
 * `npm run import` fed a hostile CouchDB (spec §16; docs/decisions/0063-import-reads-hostile-input-safely.md): bounded
 * rebuilding, ids the registry issues only, control characters escaped, and the process's memory under 512 MiB.
 * A CouchDB-compatible server serves the documents; the command runs as a process; a registry then reads the store.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAssets, ORIGINAL_TZ } from '../../bench/original.js';
import { startCouch, type CouchServer } from '../../bench/couchdb.js';
import { startServer, useScratch } from '../helpers/server.js';

type Doc = Record<string, any>;

/** Written by the child as it exits: its peak resident memory (KiB). */
const PEAK =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kib '+process.resourceUsage().maxRSS+'\\n'))";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  peakMiB: number;
}

function runImport(env: Record<string, string>, from: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // A heap cap above the bound, so that an unbounded import fails here rather than take the machine's memory.
    const args = [
      '--max-old-space-size=768',
      '--import',
      PEAK,
      '--import',
      'tsx',
      'src/cli/main.ts',
      'import',
      '--from',
      from,
    ];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env, TZ: ORIGINAL_TZ, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const peak = /peak-rss-kib (\d+)/.exec(stderr);
      resolve({ code, stdout, stderr, peakMiB: peak ? Number(peak[1]) / 1024 : Number.NaN });
    });
  });
}

const [plain, copyBomb, manyOperations, largeVersion, echoes, ...badIdBases] = generateAssets(
  11,
  2,
  Date.UTC(2019, 2, 1) * 1000,
).map((doc) => doc as Doc);

/** 40 copies of `unit` into itself, each under a new name: each doubles it (2 KB of patch, 2^40 times the field). */
copyBomb!.revisions[1].changes = [
  ...Array.from({ length: 40 }, (_, index) => ({ op: 'copy', from: '/unit', path: `/unit/a${index}` })),
  ...copyBomb!.revisions[1].changes,
];

manyOperations!.revisions[1].changes = [
  ...Array.from({ length: 1001 - manyOperations!.revisions[1].changes.length }, () => ({
    op: 'test',
    path: '/quantity',
    value: 5,
  })),
  ...manyOperations!.revisions[1].changes,
];

largeVersion!.revisions[1].changes = [
  { op: 'add', path: '/title_en', value: 'x'.repeat(1024 * 1024) },
  ...largeVersion!.revisions[1].changes,
];

/**
 * Revisions that copy a 300 KB description and remove the copy in turn: each is 60 bytes of patch, and every other
 * one's forward changes 300 KB; 40 of them would rebuild a history 20 times the document.
 */
echoes!.description = 'd'.repeat(300 * 1024);
const lastEcho = echoes!.revisions[1];
echoes!.revisions = [
  echoes!.revisions[0],
  ...Array.from({ length: 40 }, (_, index) => ({
    author: 'broker',
    date: lastEcho.date,
    changes:
      index % 2 === 0
        ? [{ op: 'remove', path: '/description_en' }]
        : [{ op: 'copy', from: '/description', path: '/description_en' }],
  })),
  lastEcho,
];

const BAD_IDS = [
  '../../etc/passwd',
  'ABCDEF0123456789ABCDEF0123456789',
  '\u001b[31mred\u001b[0m',
  'line\nbreak',
  'x'.repeat(5000),
  `${'a'.repeat(31)}\u0007`,
];
const badIds = BAD_IDS.map((id, index) => ({ ...badIdBases[index]!, _id: id }));

/** As the import prints it. */
const escaped = (id: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it escapes
  id.replace(/[\u0000-\u001f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('npm run import from a hostile CouchDB (record 0063)', () => {
  const scratch = useScratch();
  let couch: CouchServer;

  beforeAll(async () => {
    couch = await startCouch();
    await couch.seed('hostile', [plain!, copyBomb!, manyOperations!, largeVersion!, echoes!, ...badIds]);
  });
  afterAll(() => couch?.close());

  it('bounds every rebuilt version and history, refuses ids the registry never issues, escapes what it prints', {
    timeout: 180_000,
  }, async () => {
    const dataDir = await scratch.dir('registry-import-hostile-');
    const mongo = scratch.mongoUri();
    const store: Record<string, string> =
      mongo === undefined ? { DATA_DIR: dataDir } : { DATA_DIR: dataDir, MONGODB_URI: mongo };
    const run = await runImport(store, couch.databaseUrl('hostile'));

    expect(run.code, run.stderr).toBe(1);
    expect(run.peakMiB, 'peak resident memory of the import, MiB').toBeLessThan(512);
    expect(run.stdout).toContain('assets imported: 5');
    expect(run.stdout).toContain('histories rebuilt: 1');
    expect(run.stdout).toContain('history fallbacks: 4');
    expect(run.stdout).toContain(
      `history fallbacks ${copyBomb!._id}: revision 2: the version it rebuilds would be larger than 1048576 bytes`,
    );
    expect(run.stdout).toContain(
      `history fallbacks ${manyOperations!._id}: revision 2 has 1001 operations, more than 1000`,
    );
    expect(run.stdout).toContain(
      `history fallbacks ${largeVersion!._id}: revision 2: the version it rebuilds would be larger than 1048576 bytes`,
    );
    expect(run.stdout).toContain(
      `history fallbacks ${echoes!._id}: the rebuilt history would be more than 4 times the size of the document`,
    );
    expect(run.stdout).toContain(`refused: ${BAD_IDS.length}`);
    for (const id of BAD_IDS) {
      expect(run.stdout).toContain(`refused ${escaped(id)}: _id is not 32 lowercase hexadecimal characters`);
    }
    // Nothing it prints reaches the terminal as a control character.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it looks for
    expect(run.stdout.replaceAll('\n', '')).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(run.stdout).toContain('\\u001b[31mred\\u001b[0m');

    const server = await startServer({ ...store, TZ: ORIGINAL_TZ });
    try {
      const page = await server.anonymous.get('/api/0.1/assets?mode=_all_&limit=100');
      expect(page.status).toBe(200);
      const listed = (page.json.data as { id: string }[]).map((asset) => asset.id).sort();
      expect(listed).toEqual([plain, copyBomb, manyOperations, largeVersion, echoes].map((doc) => doc!._id).sort());
      // A fallback is one revision holding the asset as it stands; the plain asset keeps its two.
      for (const doc of [copyBomb, manyOperations, largeVersion, echoes]) {
        const history = await server.anonymous.get(`/api/0.1/assets/${doc!._id}/revisions`);
        expect(history.status).toBe(200);
        expect(history.json.data.map((revision: { rev: number }) => revision.rev)).toEqual([1]);
      }
      const kept = await server.anonymous.get(`/api/0.1/assets/${plain!._id}/revisions`);
      expect(kept.json.data.map((revision: { rev: number }) => revision.rev)).toEqual([1, 2]);
    } finally {
      await server.close();
    }
  });
});
