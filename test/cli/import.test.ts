/**
 * `claimrights-registry import` end to end: a CouchDB-compatible server seeded as the original stored its documents, the command
 * run as a process into the store of the settings, then a registry started on that store and driven over HTTP.
 * docs/decisions/0039-import-resumable-into-an-empty-store.md, docs/decisions/0040-what-the-import-keeps.md,
 * docs/decisions/0041-import-rebuilds-histories.md.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { formatDate, nowMicros } from '../../src/domain/dates.js';
import { assetAfter } from '../../src/domain/history.js';
import { openImportStore, openStore } from '../../src/store/index.js';
import {
  generateAssets,
  ORIGINAL_TZ,
  servedFields,
  sha512Hex,
  storedAsset,
  storedTransfer,
  type Step,
} from '../../bench/original.js';
import { startCouch, type CouchServer } from '../../bench/couchdb.js';
import { startServer, useScratch, type Scratch, type TestServer } from '../helpers/server.js';

const TZ = ORIGINAL_TZ;
const DAY = '2018-01-09';
const at = (time: string) => `${DAY}T${time}+02:00`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `claimrights-registry import` as a process; `onStderr` sees its progress lines (and may kill it). */
function runImport(
  store: StoreSettings,
  from: string,
  extra: string[] = [],
  onStderr?: (text: string, kill: () => void) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', '--from', from, ...extra], {
      env: { ...process.env, ...store, TZ, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr, () => child.kill('SIGKILL'));
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type StoreSettings = { DATA_DIR: string } | { MONGODB_URI: string; DATA_DIR: string };

async function freshStore(scratch: Scratch): Promise<StoreSettings> {
  const dir = await scratch.dir('registry-import-');
  const mongo = scratch.mongoUri();
  return mongo === undefined ? { DATA_DIR: dir } : { MONGODB_URI: mongo, DATA_DIR: dir };
}

async function registryOn(store: StoreSettings): Promise<TestServer> {
  return startServer({ ...store, TZ });
}

// ---- the seeded database: the transcripts' assets with the hidden fields the original kept ----

const OWNER_TOKEN_A = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
const TRANSFER_A = 'a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2';
const OWNER_TOKEN_B = 'b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1';
const TRANSFER_B = 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2';
const UNUSED_TRANSFER = {
  id: 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0',
  token: 'e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1',
  transfer: 'e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2',
};
const USED_TRANSFER = { id: 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0', token: OWNER_TOKEN_B, transfer: TRANSFER_B };

const ID = {
  pending: 'a000000000000000000000000000000a',
  transferred: 'b000000000000000000000000000000b',
  broken: 'c000000000000000000000000000000c',
  draft: 'd000000000000000000000000000000d',
  complete: 'b1845029a72a4077aeff912604721ee7',
  deleted: '6aa3093c0b00447abefcacf9a11da277',
  detached: '68dcee4e1af44aa493c6a040a924c03f',
  secondDraft: '6f32878c0ec44d8e992cf5365fa919ee',
  today: '7000000000000000000000000000000a',
  twin: '2000000000000000000000000000000b',
};

function steps(
  base: Record<string, unknown>,
  changes: [time: string, author: string, fields: Record<string, unknown>][],
): Step[] {
  const out: Step[] = [];
  let state = base;
  for (const [time, author, fields] of changes) {
    state = { ...state, ...fields };
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete state[key];
    out.push({ author, date: at(time), after: state });
  }
  return out;
}

const todayDay = formatDate(nowMicros(), TZ).slice(0, 10);

const TRANSCRIPTS = fileURLToPath(
  new URL('../../../shared/reference/openregistry-examples/claimrights/', import.meta.url),
);
/** Transcripts of the 2017 basic-asset era (another asset type, another assetID prefix). */
const STALE = ['create-asset.http', 'asset-post-attempt-json-data.http'];

/**
 * Each asset the transcripts show, as the original stored it: its successive served views (by `dateModified`) are
 * its revisions, the last one is what it must serve; the hidden fields are added (a plain owner token for some, the
 * SHA-512 digest an ownership change leaves for others; a SHA-512 transfer token). The concierge made the moves to
 * and from `active` and to `complete`; the broker everything else.
 */
/** The owner token a broker holds for a transcript's asset; the original kept it plain or as its SHA-512 digest. */
const transcriptOwnerToken = (id: string) => `${id.slice(0, 16)}${'0'.repeat(16)}`;
const transcriptTokenIsPlain = (id: string) => id.charCodeAt(1) % 2 === 1;

function transcriptAssets(): Record<string, any>[] {
  const views = new Map<string, Map<string, Record<string, any>>>();
  for (const file of readdirSync(TRANSCRIPTS).filter((name) => name.endsWith('.http') && !STALE.includes(name))) {
    const response = readFileSync(join(TRANSCRIPTS, file), 'utf8').split(/^Response: /m)[1] ?? '';
    const body = response.indexOf('{') === -1 ? undefined : JSON.parse(response.slice(response.indexOf('{')));
    const data = body?.data;
    if (data === undefined || Array.isArray(data) || typeof data.id !== 'string') continue;
    if (!views.has(data.id)) views.set(data.id, new Map());
    views.get(data.id)!.set(data.dateModified, data);
  }
  return [...views].map(([id, byDate]) => {
    const ordered = [...byDate.values()].sort((a, b) => a.dateModified.localeCompare(b.dateModified));
    const hidden = {
      owner_token: transcriptTokenIsPlain(id) ? transcriptOwnerToken(id) : sha512Hex(transcriptOwnerToken(id)),
    };
    const transcriptSteps: Step[] = ordered.map((view, i) => {
      const { id: _id, dateModified, ...fields } = view;
      const previous = ordered[i - 1];
      const byConcierge =
        previous !== undefined &&
        previous.status !== view.status &&
        ['active', 'complete'].some((s) => [view.status, previous.status].includes(s));
      return {
        author: byConcierge ? 'concierge' : 'broker',
        date: dateModified,
        after: { ...fields, ...hidden, transfer_token: sha512Hex(`t-${id}`) },
      };
    });
    return storedAsset(id, transcriptSteps);
  });
}

function seedDocs(): Record<string, unknown>[] {
  const units = { unit: { code: 'H87', name: 'штука' } };
  const pending = storedAsset(
    ID.pending,
    steps({ ...servedFields(1), ...units, owner: 'broker', assetID: `UA-AR-DGF-${DAY}-000001` }, [
      [
        '18:31:03.835865',
        'broker',
        {
          status: 'draft',
          date: at('18:31:03.835865'),
          owner_token: OWNER_TOKEN_A,
          transfer_token: sha512Hex(TRANSFER_A),
        },
      ],
      ['18:31:03.936033', 'broker', { status: 'pending', date: at('18:31:03.936033') }],
      // Two fields the original served and this registry does not: left out of the asset and its history.
      [
        '18:31:04.100000',
        'broker',
        {
          title: 'Земля для космодрому',
          description: 'опис',
          schema_properties: { code: '04', version: '001' },
          sandboxParameters: 'quick',
        },
      ],
    ]),
  );
  // Owned after an ownership change: the owner token is the transfer's SHA-512 digest.
  const transferred = storedAsset(
    ID.transferred,
    steps({ ...servedFields(2), ...units, owner: 'broker', assetID: `UA-AR-DGF-${DAY}-000002` }, [
      [
        '18:31:04.200000',
        'broker',
        {
          status: 'draft',
          date: at('18:31:04.200000'),
          owner_token: 'olderplaintoken0000000000000000aa',
          transfer_token: sha512Hex('old'),
        },
      ],
      ['18:31:04.300000', 'broker', { status: 'pending', date: at('18:31:04.300000') }],
      [
        '18:31:04.400000',
        'broker2',
        { owner: 'broker2', owner_token: sha512Hex(OWNER_TOKEN_B), transfer_token: sha512Hex(TRANSFER_B) },
      ],
    ]),
  );
  // Documents: two versions of one document id (a PUT appended the second).
  const doc1 = {
    id: 'dddddddddddddddddddddddddddddd01',
    title: 'Паспорт.pdf',
    format: 'application/pdf',
    url: 'http://ds/get/1?KeyID=a&Signature=b',
    hash: `md5:${'0'.repeat(32)}`,
    documentOf: 'asset',
    datePublished: at('18:31:04.250000'),
    dateModified: at('18:31:04.250000'),
    author: 'asset_owner',
  };
  const doc1v2 = {
    ...doc1,
    title: 'Паспорт-2.pdf',
    url: 'http://ds/get/2?KeyID=a&Signature=b',
    dateModified: at('18:31:04.350000'),
  };
  transferred.documents = [doc1, doc1v2];
  transferred.revisions[1].changes.push({ op: 'remove', path: '/documents' });
  // A patch that does not apply.
  const broken = storedAsset(
    ID.broken,
    steps({ ...servedFields(3), ...units, owner: 'broker', assetID: `UA-AR-DGF-${DAY}-000004` }, [
      [
        '18:31:04.500000',
        'broker',
        { status: 'draft', date: at('18:31:04.500000'), owner_token: 'cccc', transfer_token: sha512Hex('c') },
      ],
      ['18:31:04.600000', 'broker', { status: 'pending', date: at('18:31:04.600000') }],
    ]),
  );
  broken.revisions[1].changes = [{ op: 'replace', path: '/nowhere/at/all', value: 1 }];
  // A draft (never listed) whose history uses move, copy and test.
  const draft = storedAsset(
    ID.draft,
    steps({ ...servedFields(4), ...units, owner: 'broker', assetID: `UA-AR-DGF-${DAY}-000005` }, [
      [
        '18:31:04.700000',
        'broker',
        {
          status: 'draft',
          date: at('18:31:04.700000'),
          title_ru: 'Земля',
          owner_token: 'dddd',
          transfer_token: sha512Hex('d'),
        },
      ],
      ['18:31:04.800000', 'broker', { title_en: 'Земля', title_ru: undefined, description_en: 'copy' }],
    ]),
  );
  draft.revisions[1].changes = [
    { op: 'test', path: '/title_en', value: 'Земля' },
    { op: 'move', from: '/title_en', path: '/title_ru' },
    { op: 'copy', from: '/description_en', path: '/description_ru' },
    { op: 'remove', path: '/description_ru' },
    { op: 'remove', path: '/description_en' },
  ];
  const today = storedAsset(
    ID.today,
    steps({ ...servedFields(6), ...units, owner: 'broker', assetID: `UA-AR-DGF-${todayDay}-000007` }, [
      [
        '18:31:06.000000',
        'broker',
        { status: 'draft', date: at('18:31:06.000000'), owner_token: 'ffff', transfer_token: sha512Hex('f') },
      ],
      ['18:31:06.100000', 'broker', { status: 'pending', date: at('18:31:06.100000') }],
    ]),
  );
  // The same dateModified as `pending` (two nodes of the original may have written in the same microsecond).
  const twin = storedAsset(
    ID.twin,
    steps({ ...servedFields(8), ...units, owner: 'broker', assetID: `UA-AR-DGF-${DAY}-000006` }, [
      [
        '18:31:04.000000',
        'broker',
        { status: 'draft', date: at('18:31:04.000000'), owner_token: 'abab', transfer_token: sha512Hex('ab') },
      ],
      ['18:31:04.100000', 'broker', { status: 'pending', date: at('18:31:04.100000') }],
    ]),
  );
  return [
    { _id: '_design/assets', views: { by_dateModified: { map: 'function (doc) {}' } } },
    { _id: 'assetID', [DAY]: 8 },
    ...transcriptAssets(),
    pending,
    storedTransfer(
      USED_TRANSFER.id,
      'broker2',
      USED_TRANSFER.token,
      USED_TRANSFER.transfer,
      at('18:31:04.400000'),
      `/assets/${ID.transferred}`,
    ),
    transferred,
    broken,
    draft,
    storedTransfer(
      UNUSED_TRANSFER.id,
      'broker2',
      UNUSED_TRANSFER.token,
      UNUSED_TRANSFER.transfer,
      at('18:40:00.000000'),
    ),
    today,
    twin,
    { _id: 'basic-asset', doc_type: 'Asset', assetType: 'basic', title: 'x' },
    {
      _id: 'no-title',
      doc_type: 'Asset',
      ...servedFields(7),
      title: undefined,
      owner: 'broker',
      status: 'pending',
      id: 'x',
      assetID: 'x',
      date: at('18:00:00'),
      dateModified: at('18:00:00'),
    },
    { _id: 'gone', doc_type: 'Asset' },
  ].map((doc) => JSON.parse(JSON.stringify(doc)));
}

/** What `GET /assets/{id}` must serve for a seeded asset: the document without what the original never served, nor the fields this registry does not serve. */
function expectedServed(doc: Record<string, any>): Record<string, unknown> {
  const {
    _id,
    doc_type,
    revisions,
    owner_token,
    transfer_token,
    _rev,
    documents,
    schema_properties,
    sandboxParameters,
    ...rest
  } = doc;
  const served: Record<string, unknown> = { id: _id, ...rest };
  if (documents !== undefined) served.documents = [documents[documents.length - 1]];
  return served;
}

describe('npm run import', () => {
  const scratch = useScratch();
  let couch: CouchServer;
  const docs = seedDocs();
  const byId = new Map(docs.map((doc) => [doc._id as string, doc as Record<string, any>]));

  beforeAll(async () => {
    couch = await startCouch();
    await couch.seed('openregistry', docs);
    await couch.remove('openregistry', 'gone');
  });
  afterAll(() => couch?.close());

  it('imports assets, tokens, transfers and histories; the registry then serves them as the original did', {
    timeout: 120_000,
  }, async () => {
    const store = await freshStore(scratch);
    const run = await runImport(store, couch.databaseUrl('openregistry'), ['--page-size', '3']);
    expect(run.stderr).toMatch(/import: \d+ of about \d+ documents read/);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('assets imported: 10');
    expect(run.stdout).toContain('transfers imported: 2');
    expect(run.stdout).toContain('refused: 1');
    expect(run.stdout).toContain('skipped: design document: 1');
    expect(run.stdout).toContain('skipped: deleted document: 1');
    expect(run.stdout).toContain('skipped: no doc_type: 1');
    expect(run.stdout).toContain('skipped: other assetType: 1');
    expect(run.stdout).toContain('histories rebuilt: 9');
    expect(run.stdout).toContain(
      `dateModified moved ${ID.twin}: another asset has dateModified ${at('18:31:04.100000')}; moved by 1 µs`,
    );
    expect(run.stdout).toContain('history fallbacks: 1');
    expect(run.stdout).toMatch(new RegExp(`history fallbacks ${ID.broken}: a patch does not apply`));
    expect(run.stdout).toMatch(new RegExp(`imported with errors ${ID.complete}: .*unit.*Recommendation 20`));
    expect(run.stdout).toMatch(/refused no-title: title is missing/);
    expect(run.stdout).toContain('fields not imported: 1');
    expect(run.stdout).toContain(
      `fields not imported ${ID.pending}: the registry does not serve /schema_properties, /sandboxParameters`,
    );

    // Run again after completion: nothing changes, the same report and exit.
    const again = await runImport(store, couch.databaseUrl('openregistry'));
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('already complete; nothing was written');
    expect(again.stdout.split('\n').slice(1)).toEqual(run.stdout.split('\n').slice(1));

    const server = await registryOn(store);
    try {
      const { anonymous, broker, broker2 } = server;
      const served = (id: string) => {
        const expected = expectedServed(byId.get(id)!);
        return id === ID.twin ? { ...expected, dateModified: at('18:31:04.100001') } : expected;
      };
      for (const id of Object.values(ID)) {
        const res = await anonymous.get(`/api/0.1/assets/${id}`);
        expect(res.status, `${id}: ${res.text}`).toBe(200);
        expect(res.json.data).toEqual(served(id));
      }
      // The older version of a document the original kept in the same list is its previousVersions.
      const [firstVersion, latestVersion] = byId.get(ID.transferred)!.documents;
      const document = await anonymous.get(`/api/0.1/assets/${ID.transferred}/documents/${latestVersion.id}`);
      expect(document.status, document.text).toBe(200);
      expect(document.json.data).toEqual({ ...latestVersion, previousVersions: [firstVersion] });

      // Every history folds to its asset (the revisions endpoint); the rebuilt ones keep the original's authors and dates.
      const revisions = async (id: string): Promise<any[]> => {
        const res = await anonymous.get(`/api/0.1/assets/${id}/revisions?limit=1000`);
        expect(res.status, res.text).toBe(200);
        return res.json.data;
      };
      for (const id of Object.values(ID)) expect(assetAfter(await revisions(id))).toEqual(served(id));
      expect((await revisions(ID.pending)).map((revision) => [revision.rev, revision.author, revision.date])).toEqual([
        [1, 'broker', at('18:31:03.835865')],
        [2, 'broker', at('18:31:03.936033')],
        [3, 'broker', at('18:31:04.100000')],
      ]);
      const second = await anonymous.get(`/api/0.1/assets/${ID.pending}/revisions/2`);
      expect(second.json.data).toMatchObject({
        status: 'pending',
        title: servedFields(1).title,
        dateModified: at('18:31:03.936033'),
      });
      expect((await revisions(ID.broken)).map((revision) => revision.author)).toEqual(['broker']);
      expect((await revisions(ID.complete)).map((revision) => [revision.author, revision.date])).toEqual([
        ['broker', '2018-01-09T18:31:04.788157+02:00'],
        ['concierge', '2018-01-09T18:31:04.904205+02:00'],
        ['concierge', '2018-01-09T18:31:05.192219+02:00'],
      ]);
      expect((await revisions(ID.deleted)).map((revision) => revision.rev)).toEqual([1, 2, 3, 4]);

      // The feed from the start: exactly the listable assets (no draft), in the order of their dateModified.
      const feed = await anonymous.get('/api/0.1/assets?mode=_all_');
      const listable = Object.values(ID)
        .filter((id) => served(id).status !== 'draft')
        .sort((a, b) => String(served(a).dateModified).localeCompare(String(served(b).dateModified)));
      expect(listable).toHaveLength(8);
      expect(feed.json.data.map((item: any) => item.id)).toEqual(listable);
      expect(feed.json.data.map((item: any) => item.dateModified)).toEqual(
        listable.map((id) => served(id).dateModified),
      );

      // The original plain owner token edits its asset; the write gets a later dateModified than every imported one.
      const patched = await broker.patch(
        `/api/0.1/assets/${ID.pending}`,
        { data: { title: 'Нова назва' } },
        { token: OWNER_TOKEN_A },
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.json.data.dateModified > byId.get(ID.today)!.dateModified).toBe(true);
      expect(
        (await broker.patch(`/api/0.1/assets/${ID.pending}`, { data: { title: 'x' } }, { token: 'wrong' })).status,
      ).toBe(403);
      const afterPatch = await revisions(ID.pending);
      expect(afterPatch.map((revision) => revision.rev)).toEqual([1, 2, 3, 4]);
      expect(assetAfter(afterPatch)).toEqual(patched.json.data);
      // The transcripts' assets, owner tokens kept as SHA-512 digests: their owner edits them, and (§14) the first
      // write must replace the CAV codes the original took as unit codes.
      expect([ID.detached, ID.secondDraft].map(transcriptTokenIsPlain)).toEqual([false, false]);
      for (const id of [ID.detached, ID.secondDraft]) {
        const token = transcriptOwnerToken(id);
        const unfixed = await broker.patch(`/api/0.1/assets/${id}`, { data: { description: 'змінено' } }, { token });
        expect(unfixed.status, unfixed.text).toBe(422);
        expect(unfixed.json.errors.map((error: any) => error.name).sort()).toEqual(['items', 'unit']);
        const items = (served(id).items as unknown[]).map(() => ({ unit: { code: 'H87' } }));
        const fixed = await broker.patch(
          `/api/0.1/assets/${id}`,
          { data: { description: 'змінено', unit: { code: 'H87' }, items } },
          { token },
        );
        expect(fixed.status, fixed.text).toBe(200);
        expect(
          (await broker.patch(`/api/0.1/assets/${id}`, { data: { title: 'x' } }, { token: token.toUpperCase() }))
            .status,
        ).toBe(403);
      }
      // The owner token an ownership change gave (kept as a SHA-512 digest) works too.
      const byNewOwner = await broker2.patch(
        `/api/0.1/assets/${ID.transferred}`,
        { data: { description: 'новий' } },
        { token: OWNER_TOKEN_B },
      );
      expect(byNewOwner.status, byNewOwner.text).toBe(200);

      // The used transfer stays used; the unused one moves an asset with the asset's original transfer token.
      const used = await broker2.get(`/api/0.1/transfers/${USED_TRANSFER.id}`);
      expect(used.json.data).toEqual({
        id: USED_TRANSFER.id,
        date: at('18:31:04.400000'),
        usedFor: `/assets/${ID.transferred}`,
      });
      const reuse = await broker.post(`/api/0.1/assets/${ID.pending}/ownership`, {
        data: { id: USED_TRANSFER.id, transfer: TRANSFER_A },
      });
      expect(reuse.status, reuse.text).toBe(403);
      expect(reuse.json.errors[0].description).toBe('Transfer already used');
      const moved = await broker.post(`/api/0.1/assets/${ID.pending}/ownership`, {
        data: { id: UNUSED_TRANSFER.id, transfer: TRANSFER_A },
      });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.json.data.owner).toBe('broker2');
      expect(
        (
          await broker2.patch(
            `/api/0.1/assets/${ID.pending}`,
            { data: { title: 'y' } },
            { token: UNUSED_TRANSFER.token },
          )
        ).status,
      ).toBe(200);

      // The day's assetID counter goes on after the highest imported number of that day.
      const created = await broker.post('/api/0.1/assets', {
        data: { ...servedFields(9), unit: { code: 'H87', name: 'штука' } },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.json.data.assetID).toBe(`UA-AR-DGF-${todayDay}-000008`);
    } finally {
      await server.close();
    }
  });

  it('refuses, with exit 2 and nothing written: a store with data of its own, no such database, refused credentials, no server', {
    timeout: 120_000,
  }, async () => {
    const store = await freshStore(scratch);
    const server = await registryOn(store);
    await server.broker.post('/api/0.1/assets', { data: { ...servedFields(1), unit: { code: 'H87', name: 'штука' } } });
    await server.close();
    const own = await runImport(store, couch.databaseUrl('openregistry'));
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/already holds assets or transfers of its own/);

    const empty = await freshStore(scratch);
    const missing = await runImport(empty, couch.databaseUrl('nosuchdb'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/has no database .*nosuchdb/);

    const guarded = await startCouch({ user: 'admin', password: 'secret' });
    try {
      await guarded.seed('guarded', docs.slice(0, 3));
      const wrong = guarded.databaseUrl('guarded').replace('secret', 'wrong');
      const refused = await runImport(empty, wrong);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/refused the credentials/);
      expect(refused.stderr).not.toContain('wrong@');
    } finally {
      await guarded.close();
    }
    const unreachable = await runImport(empty, 'http://127.0.0.1:9/openregistry');
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/unreachable/);
    const notUrl = await runImport(empty, 'couchdb/openregistry');
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toMatch(/is not a URL/);
    const noDatabase = await runImport(empty, couch.url);
    expect(noDatabase.code).toBe(2);
    expect(noDatabase.stderr).toMatch(/names no database/);

    const location = {
      dataDir: empty.DATA_DIR,
      mongodbUri: 'MONGODB_URI' in empty ? empty.MONGODB_URI : undefined,
      timeZone: TZ,
    };
    const opened = await openStore(location);
    const imports = await openImportStore(location);
    try {
      expect(await imports.state()).toBeUndefined();
      expect(await opened.list({ descending: false, limit: 10, mode: 'all', fields: [] })).toEqual([]);
    } finally {
      await imports.close();
      await opened.close();
    }
  });

  it('killed with SIGKILL in the middle, the same command finishes it: the result equals an uninterrupted import', {
    timeout: 300_000,
  }, async () => {
    const generated = [
      ...generateAssets(60, 3, Date.UTC(2019, 2, 1) * 1000),
      ...docs.filter((doc) => doc._id === USED_TRANSFER.id),
    ];
    await couch.seed('generated', generated);
    const from = couch.databaseUrl('generated');

    const whole = await freshStore(scratch);
    const uninterrupted = await runImport(whole, from, ['--page-size', '5']);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);

    const interrupted = await freshStore(scratch);
    let killed = false;
    const first = await runImport(interrupted, from, ['--page-size', '5'], (text, kill) => {
      if (!killed && (text.match(/documents read/g) ?? []).length >= 4) {
        killed = true;
        kill();
      }
    });
    expect(first.code).toBeNull();
    const second = await runImport(interrupted, from, ['--page-size', '5']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(uninterrupted.stdout);
    expect(await snapshot(interrupted)).toEqual(await snapshot(whole));
  });
});

/** Everything a registry serves from an imported store: every asset (drafts too), the feed, the transfers. */
async function snapshot(settings: StoreSettings): Promise<unknown> {
  const location = {
    dataDir: settings.DATA_DIR,
    mongodbUri: 'MONGODB_URI' in settings ? settings.MONGODB_URI : undefined,
    timeZone: TZ,
  };
  const store = await openStore(location);
  const imports = await openImportStore(location);
  try {
    const feed = await store.list({ descending: false, limit: 10_000, mode: 'all', fields: [] });
    const state = await imports.state();
    const records = [];
    for (const row of feed) {
      const record = await store.get(row.id);
      records.push({ ...record, rev: undefined, history: await store.revisions(row.id, 0, 1000) });
    }
    const transfer = await store.transfers.get(USED_TRANSFER.id);
    return { feed, records, state, transfer, reports: await imports.reports() };
  } finally {
    await imports.close();
    await store.close();
  }
}
