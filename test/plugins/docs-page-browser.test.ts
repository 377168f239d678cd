/**
 * The documentation page in a real browser (Debian's Chromium, headless, driven by playwright-core): "Authorize"
 * with a broker's key, then "Try it out" → "Execute" on `GET /assets` and `POST /assets`, each answered with JSON
 * (200, 201). The requests the page sends carry no example of an optional parameter: it pre-fills none of those
 * that change the answer (record 0051). .ci/run installs the browser; without it the file is skipped.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useServer } from '../helpers/server.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** What the page would send if it pre-filled the examples of the optional parameters. */
const EXAMPLE_VALUES = ['opt_jsonp', 'opt_pretty', 'offset=', 'descending', 'mode=', 'X-Request-ID', 'SERVER_ID'];

const present = existsSync(CHROMIUM);
const title = present
  ? 'the documentation page in Chromium'
  : `the documentation page in Chromium — skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`;

describe.skipIf(!present)(title, () => {
  const server = useServer({}, { via: 'http' });
  let profile: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
    });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/api/0.1/docs`);
    await page.locator('.swagger-ui .btn.authorize').first().waitFor({ timeout: 30_000 });
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  });

  /** Expands an operation, "Try it out", "Execute"; its status, body, request URL and curl line as the page shows. */
  async function tryOut(operation: Locator) {
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table .response').first();
    await live.waitFor({ timeout: 30_000 });
    const text = async (locator: Locator) => (await locator.textContent()) ?? '';
    return {
      status: Number((await text(live.locator('.response-col_status'))).trim()),
      body: await text(live.locator('.response-col_description pre').first()),
      url: await text(operation.locator('.request-url pre')),
      curl: await text(operation.locator('.curl-command').first()),
    };
  }

  it('"Authorize" takes a broker\'s key as the Basic-auth user name', async () => {
    await page.locator('.swagger-ui .btn.authorize').first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input[aria-label="auth-basic-username"]').fill(KEYS.broker);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button[aria-label="Remove authorization"]').waitFor({ timeout: 10_000 });
    await dialog.locator('button.btn-done').click();
  }, 60_000);

  it('"Try it out" → "Execute" on GET /assets shows the JSON page, 200, sent without any example', async () => {
    const answer = await tryOut(page.locator('#operations-Assets-listAssets'));
    expect(answer.status, answer.body).toBe(200);
    const listing = JSON.parse(answer.body) as { data: unknown[]; next_page: { offset: string } };
    expect(listing).toMatchObject({ data: expect.any(Array), next_page: { offset: expect.any(String) } });
    // Only `limit`, at its default: the page fills in a parameter's default, which answers as its absence.
    expect(answer.url).toBe(`${server.url}/api/0.1/assets?limit=100`);
    for (const value of EXAMPLE_VALUES) expect(answer.curl, answer.curl).not.toContain(value);
  }, 90_000);

  it('"Try it out" → "Execute" on POST /assets with its example body shows the created asset, 201', async () => {
    const answer = await tryOut(page.locator('#operations-Assets-createAsset'));
    expect(answer.status, answer.body).toBe(201);
    const created = JSON.parse(answer.body) as { data: { id: string }; access: { token: string } };
    expect(created.data.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.access.token).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.url).toBe(`${server.url}/api/0.1/assets`);
    for (const value of EXAMPLE_VALUES) expect(answer.curl, answer.curl).not.toContain(value);
    expect(answer.curl).toContain(`Authorization: Basic ${btoa(`${KEYS.broker}:`)}`);
    // The asset is there: the registry answers for the id the page showed.
    expect((await server.anonymous.get(`/api/0.1/assets/${created.data.id}`)).status).toBe(200);
  }, 90_000);
});
