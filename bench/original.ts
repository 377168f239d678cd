/**
 * Documents shaped as the original registry stored them in CouchDB (behaviour §3.1, §5; docs/decisions/0040-what-the-import-keeps.md, docs/decisions/0041-import-rebuilds-histories.md): an
 * asset with its hidden fields (`_id`, `doc_type`, `owner_token`, `transfer_token`, `revisions`), each revision's
 * `changes` a JSON Patch from the document after it back to the one before (made as the original made them, with
 * the same diff), and transfers. Used by the import's tests and its benchmark (bench/import.ts).
 */
import { createHash } from 'node:crypto';
import fastJsonPatch from 'fast-json-patch';
import { formatDate } from '../src/domain/dates.js';

const { compare, deepClone } = fastJsonPatch;

type Doc = Record<string, any>;

export const ORIGINAL_TZ = 'Europe/Kyiv';

export function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

/** One step of an asset's life: who made it, when, and the stored document after it (hidden fields included). */
export interface Step {
  author: string;
  date: string;
  after: Doc;
}

/**
 * The stored document after `steps` (the last step's `after`, its `dateModified` the last step's date), with the
 * original's `revisions`: for each step, the reverse patch from its document to the one before (`{}` before the
 * first). The patches never touch `dateModified`, `_id`, `_rev`, `doc_type` or `revisions` (the original left them
 * out of the compared documents) but do touch `id`, `owner_token` and `transfer_token`.
 */
export function storedAsset(id: string, steps: readonly Step[]): Doc {
  const revisions: Doc[] = [];
  let before: Doc = {};
  for (const step of steps) {
    const after = { id, ...deepClone(step.after) };
    delete after.dateModified;
    revisions.push({
      author: step.author,
      date: step.date,
      changes: compare(after, before),
      rev: `${revisions.length + 1}-x`,
    });
    before = after;
  }
  const last = steps[steps.length - 1]!;
  const { id: _id, ...fields } = deepClone(last.after) as Doc;
  return { _id: id, doc_type: 'Asset', ...fields, dateModified: last.date, revisions };
}

/** A stored transfer: its owner token and transfer token as SHA-512 digests, `usedFor` once applied. */
export function storedTransfer(
  id: string,
  owner: string,
  token: string,
  transfer: string,
  date: string,
  usedFor?: string,
): Doc {
  const doc: Doc = {
    _id: id,
    doc_type: 'Transfer',
    owner,
    access_token: sha512Hex(token),
    transfer_token: sha512Hex(transfer),
    date,
  };
  if (usedFor !== undefined) doc.usedFor = usedFor;
  return doc;
}

/** A claimRights asset as the original served it (unit codes as the original's tutorials wrote them: CAV codes). */
export function servedFields(index: number): Doc {
  return {
    assetType: 'claimRights',
    title: `Право вимоги за кредитним договором № ${index}`,
    description: 'Права вимоги за кредитним договором',
    classification: { scheme: 'CAV', id: '39513200-3', description: 'Земельні ділянки' },
    value: { amount: 100 + index, currency: 'UAH', valueAddedTaxIncluded: true },
    unit: { code: '39513200-3', name: 'item' },
    quantity: 5,
    assetCustodian: {
      name: 'ПАТ "Банк"',
      identifier: { scheme: 'UA-EDR', id: '00037256', legalName: 'ПАТ "Банк"' },
      address: {
        countryName: 'Україна',
        postalCode: '01220',
        region: 'м. Київ',
        locality: 'м. Київ',
        streetAddress: 'вул. Банкова, 11',
      },
      contactPoint: { name: 'Державне управління справами', telephone: '0440000000' },
    },
  };
}

/**
 * `count` original assets with `revisions` revisions each (a creation, a move to pending, then edits of the
 * description), numbered from `from`, a microsecond apart from `startMicros` on, with plain owner tokens and
 * SHA-512 transfer tokens (`tokenOf` gives the plain ones).
 */
export function generateAssets(count: number, revisions: number, startMicros: number, from = 0): Doc[] {
  const docs: Doc[] = [];
  let micros = startMicros;
  for (let n = from; n < from + count; n++) {
    const id = createHash('md5').update(`asset-${n}`).digest('hex');
    const day = formatDate(startMicros, ORIGINAL_TZ).slice(0, 10);
    const hidden = { owner_token: tokenOf(id), transfer_token: sha512Hex(transferTokenOf(id)) };
    const base: Doc = {
      ...servedFields(n),
      owner: 'broker',
      assetID: `UA-AR-DGF-${day}-${String(n + 1).padStart(6, '0')}`,
      ...hidden,
    };
    const steps: Step[] = [];
    for (let r = 0; r < revisions; r++) {
      micros += 1000;
      const date = formatDate(micros, ORIGINAL_TZ);
      const previous = steps[steps.length - 1]?.after;
      const after: Doc =
        r === 0
          ? { ...base, status: 'draft', date }
          : r === 1
            ? { ...previous, status: 'pending', date }
            : { ...previous, description: `Права вимоги, редакція ${r}` };
      steps.push({ author: 'broker', date, after });
    }
    docs.push(storedAsset(id, steps));
  }
  return docs;
}

/** The plain owner token the generator gave asset `id`. */
function tokenOf(id: string): string {
  return createHash('md5').update(`owner-${id}`).digest('hex');
}

/** The plain transfer token the generator gave asset `id`. */
function transferTokenOf(id: string): string {
  return createHash('md5').update(`transfer-${id}`).digest('hex');
}
