/**
 * Fair writes to one contended asset: PATCHes and document writes sent at once all get through on every store; 409
 * only once the retry budget, measured in time, has run out
 * (docs/decisions/0026-compare-and-set-writes-with-a-retry-budget.md).
 */
import { describe, expect, it } from 'vitest';
import { KEYS, serverForThisTest } from '../helpers/server.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import { uploadFile } from '../helpers/uploads.js';
import { UPDATE_RETRY_BUDGET_MS } from '../../src/services/records.js';
import { reportFigures, toMicros } from './fixtures/common.js';

const FIELDS = ['title', 'title_en', 'title_ru', 'description', 'description_en', 'description_ru'];
const ROUNDS = 3;

describe('writes to one contended asset', () => {
  it(`${FIELDS.length} PATCHes and ${FIELDS.length} document writes sent at once all get through, each kept`, async () => {
    const server = await serverForThisTest({}, { via: 'http' });
    let racesLost = 0;
    const update = server.store.update.bind(server.store);
    server.store.update = async (id, expectedRev, build) => {
      const result = await update(id, expectedRev, build);
      if (result === 'conflict') racesLost++;
      return result;
    };
    const owner = server.broker;
    const { id, token } = await createAsset(owner, validAsset());
    const started = Date.now();
    let slowestMs = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const uploads = await Promise.all(FIELDS.map(() => uploadFile(owner)));
      // One client per request: separate connections, so the requests are in flight together.
      const timed = async <T>(request: Promise<T>): Promise<T> => {
        const sent = Date.now();
        const answer = await request;
        slowestMs = Math.max(slowestMs, Date.now() - sent);
        return answer;
      };
      const posts = uploads.map((upload, i) =>
        timed(
          server
            .client({ key: KEYS.broker })
            .post(
              `/api/0.1/assets/${id}/documents`,
              { data: { ...upload, title: `round ${round} doc ${i}` } },
              { token },
            ),
        ),
      );
      const patches = FIELDS.map((field) =>
        timed(
          server
            .client({ key: KEYS.broker })
            .patch(`/api/0.1/assets/${id}`, { data: { [field]: `${field} round ${round}` } }, { token }),
        ),
      );
      const [postAnswers, patchAnswers] = await Promise.all([Promise.all(posts), Promise.all(patches)]);
      for (const res of postAnswers) expect(res.status, res.text).toBe(201);
      for (const res of patchAnswers) expect(res.status, res.text).toBe(200);

      const asset = (await owner.get(`/api/0.1/assets/${id}`)).json.data;
      for (const field of FIELDS) expect(asset[field], field).toBe(`${field} round ${round}`);
      const titles = (asset.documents as { title: string }[]).map((document) => document.title);
      for (let i = 0; i < FIELDS.length; i++) expect(titles).toContain(`round ${round} doc ${i}`);
      const stamps = [...postAnswers, ...patchAnswers].map((res) => res.json.data.dateModified as string);
      expect(new Set(stamps).size, 'each write got its own dateModified').toBe(stamps.length);
      expect(asset.dateModified, 'the asset is at its latest write').toBe(
        stamps.reduce((a, b) => (toMicros(a) > toMicros(b) ? a : b)),
      );
    }
    reportFigures('contended writes: 6 PATCHes and 6 document writes at once', {
      rounds: ROUNDS,
      racesLost,
      slowestMs,
      totalMs: Date.now() - started,
    });
  }, 120_000);

  it('a write that keeps losing its race is answered 409 only once the retry budget, a time, has run out', async () => {
    const server = await serverForThisTest({}, { via: 'http' });
    const owner = server.broker;
    const { id, token } = await createAsset(owner, validAsset());
    // Every compare-and-set of the asset is lost, as when other writers always get there first.
    let attempts = 0;
    server.store.update = async () => {
      attempts++;
      return 'conflict';
    };
    const sent = performance.now();
    const res = await owner.patch(`/api/0.1/assets/${id}`, { data: { title: 'never written' } }, { token });
    const waitedMs = performance.now() - sent;
    expect(res.status, res.text).toBe(409);
    expect(res.json.errors).toEqual([
      {
        location: 'body',
        name: 'data',
        description: 'The asset was changed by concurrent requests; repeat the request',
      },
    ]);
    expect(waitedMs).toBeGreaterThanOrEqual(UPDATE_RETRY_BUDGET_MS);
    expect(waitedMs).toBeLessThan(UPDATE_RETRY_BUDGET_MS + 2_000);
    expect(attempts, 'retried for the whole budget, not a fixed count').toBeGreaterThan(20);
    expect((await owner.get(`/api/0.1/assets/${id}`)).json.data.title).toBe(validAsset().title);
  }, 30_000);
});
