/**
 * The write load of every scenario: writers, each bound to one node, that create assets, publish them and edit
 * them, every request recorded with its answer. A PATCH sets `title` and `description` to one marker, so that a
 * refused write can be told applied whole, applied in part, or not applied (checks.ts).
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { validAsset } from '../../test/helpers/fixtures.js';
import { API, sleep, type RegistryNode } from './nodes.js';

export const now = (): number => performance.timeOrigin + performance.now();

export type WriteKind = 'create' | 'publish' | 'edit';

/** One write request and what became of it. */
export interface Attempt {
  writer: number;
  node: string;
  kind: WriteKind;
  /** The asset (unknown for a create that was not answered 201). */
  id?: string;
  /** The value a create's title or an edit's title and description were set to. */
  marker: string;
  sentAt: number;
  answeredAt: number;
  /** 0: no answer (the connection failed or the client gave up). */
  status: number;
  /** A 2xx's dateModified. */
  dateModified?: string;
  retryAfter?: string;
  /** The answer's body is the error envelope (`status: error`, `errors` with location, name, description). */
  envelope: boolean;
  errorText?: string;
}

export interface Asset {
  id: string;
  token: string;
  writer: number;
  /** Answered 200 to the move to `pending`: the asset is in the feed. */
  listed: boolean;
}

export interface LoadOptions {
  /** The node each writer writes to, asked before every request (a scenario may move writers off a node). */
  nodeOf: (writer: number) => RegistryNode;
  keys: string[];
  /** How long a request may go unanswered before the client gives up (status 0). */
  clientTimeoutMs: number;
  editsPerAsset: number;
}

function isEnvelope(body: unknown): boolean {
  const errors = (body as { status?: unknown; errors?: unknown } | null)?.errors;
  return (
    (body as { status?: unknown }).status === 'error' &&
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((entry) => typeof entry?.location === 'string' && typeof entry?.name === 'string')
  );
}

export class Load {
  readonly attempts: Attempt[] = [];
  readonly assets = new Map<string, Asset>();
  private stopped = false;
  private running: Promise<void>[] = [];
  private readonly cookies = new Map<string, string>();
  private readonly agents: Agent[];

  constructor(private readonly options: LoadOptions) {
    this.agents = options.keys.map(() => new Agent({ connections: 4, keepAliveTimeout: 2_000 }));
  }

  start(): void {
    this.running = this.options.keys.map((_, writer) => this.runWriter(writer));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
    await Promise.all(this.agents.map((agent) => agent.close().catch(() => undefined)));
  }

  /** Acknowledged writes so far (2xx). */
  acknowledged(): number {
    return this.attempts.filter((attempt) => attempt.status >= 200 && attempt.status < 300).length;
  }

  private async send(
    writer: number,
    kind: WriteKind,
    marker: string,
    method: 'POST' | 'PATCH',
    path: string,
    body: unknown,
    id?: string,
  ): Promise<{ attempt: Attempt; json: any }> {
    for (let repeat = 0; ; repeat++) {
      const node = this.options.nodeOf(writer);
      const cookieKey = `${writer} ${node.name}`;
      const headers: Record<string, string> = {
        authorization: `Basic ${Buffer.from(`${this.options.keys[writer]}:`).toString('base64')}`,
        'content-type': 'application/json',
      };
      const cookie = this.cookies.get(cookieKey);
      if (cookie) headers.cookie = cookie;
      const attempt: Attempt = {
        writer,
        node: node.name,
        kind,
        id,
        marker,
        sentAt: now(),
        answeredAt: 0,
        status: 0,
        envelope: false,
      };
      let json: any;
      try {
        const res = await request(node.url + path, {
          method,
          headers,
          body: JSON.stringify(body),
          dispatcher: this.agents[writer],
          headersTimeout: this.options.clientTimeoutMs,
          bodyTimeout: this.options.clientTimeoutMs,
        });
        const text = await res.body.text();
        attempt.answeredAt = now();
        attempt.status = res.statusCode;
        const setCookie = res.headers['set-cookie'];
        const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
        if (first) this.cookies.set(cookieKey, first.split(';')[0]!);
        // The cluster cookie is handed out with a 412: repeated, as every client does (not a fault's refusal).
        if (res.statusCode === 412 && repeat < 3) continue;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        if (res.statusCode >= 400) {
          attempt.envelope = isEnvelope(json);
          attempt.errorText = text.slice(0, 300);
          const retryAfter = res.headers['retry-after'];
          if (retryAfter !== undefined) attempt.retryAfter = String(retryAfter);
        } else {
          attempt.dateModified = json?.data?.dateModified;
          if (kind === 'create') attempt.id = json?.data?.id;
        }
      } catch (error) {
        attempt.answeredAt = now();
        attempt.errorText = String(error).slice(0, 300);
      }
      this.attempts.push(attempt);
      return { attempt, json };
    }
  }

  private async runWriter(writer: number): Promise<void> {
    let n = 0;
    const ok = (attempt: Attempt) => attempt.status >= 200 && attempt.status < 300;
    /** After a refusal or no answer, a short pause (the tests' pace, not Retry-After's seconds). */
    const backOff = () => sleep(200 + Math.random() * 200);
    while (!this.stopped) {
      const marker = `w${writer}-a${n++}`;
      const { attempt, json } = await this.send(writer, 'create', marker, 'POST', `${API}/assets`, {
        data: validAsset({ title: marker }),
      });
      if (!ok(attempt)) {
        await backOff();
        continue;
      }
      const asset: Asset = { id: json.data.id, token: json.access.token, writer, listed: false };
      this.assets.set(asset.id, asset);
      const path = `${API}/assets/${asset.id}?acc_token=${asset.token}`;
      while (!this.stopped && !asset.listed) {
        const published = await this.send(
          writer,
          'publish',
          'pending',
          'PATCH',
          path,
          { data: { status: 'pending' } },
          asset.id,
        );
        if (ok(published.attempt)) asset.listed = true;
        else await backOff();
      }
      for (let edit = 0; edit < this.options.editsPerAsset && !this.stopped; edit++) {
        const value = `${marker}-e${edit}`;
        const edited = await this.send(
          writer,
          'edit',
          value,
          'PATCH',
          path,
          { data: { title: value, description: value } },
          asset.id,
        );
        if (!ok(edited.attempt)) await backOff();
      }
    }
  }
}
