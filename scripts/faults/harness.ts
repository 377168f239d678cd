/**
 * One scenario's run: two registry nodes on one store, eight writers (four per node) and four change-stream
 * followers that hop between the nodes with `Last-Event-ID`, the fault and its repair, then the checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toMicros } from '../../test/reliability/fixtures/common.js';
import { StreamFollower } from '../../test/reliability/fixtures/stream-follower.js';
import { checkAll, type Verdict } from './checks.js';
import { Load, now, type Attempt } from './load.js';
import { RegistryNode, sleep, writeAuthFile, type SharedStore } from './nodes.js';

const WRITERS = 8;
const FOLLOWERS = 4;
const REQUEST_TIMEOUT_MS = 30_000;

export interface Context {
  nodes: RegistryNode[];
  load: Load;
  followers: StreamFollower[];
  /** The scratch folder of the scenario. */
  dir: string;
  store: SharedStore;
  /** When the fault began and when it was repaired (ms, `now()`); set by the scenario. */
  faultAt: number;
  repairAt: number;
  /** Lines for the report. */
  notes: string[];
  /** Broken rules found by the scenario's own checks. */
  violations: string[];
  log(message: string): void;
}

export interface Scenario {
  name: string;
  /** In the short subset CI runs (`--quick`): no replicated engine, a few minutes in all. */
  quick: boolean;
  /** The store for the run: an embedded store's DATA_DIR, or a MongoDB URI. */
  store(dir: string): Promise<{ store: SharedStore; cleanup: () => Promise<void> | void }>;
  /** Per node: a clock file for libfaketime, other settings. */
  nodeOptions?: (index: number, dir: string) => { clockFile?: string; env?: Record<string, string> };
  /** Injects the fault, waits, repairs it; sets `faultAt` and `repairAt`. */
  fault(context: Context): Promise<void>;
  /** Requests a stopped node could not answer in time. */
  excused?: (attempt: Attempt, context: Context) => boolean;
  /** How long the load runs before the fault (default 4 s). */
  warmUpMs?: number;
  /** How soon writes must be acknowledged again on every node after the repair. */
  recoveryLimitSeconds?: number;
  /** How long streams may take to deliver every final version after the load stops (leases run out). */
  streamWaitMs?: number;
  /** The node followers may read from, at any moment (not a stopped one). */
  readable?: (context: Context) => RegistryNode[];
}

export interface Outcome extends Verdict {
  name: string;
  recoverySeconds: number;
  notes: string[];
}

/** Per node: how long after the repair a write sent after it was first acknowledged. */
function recovery(context: Context): number {
  let worst = 0;
  for (const node of context.nodes) {
    const first = context.load.attempts
      .filter((a) => a.node === node.name && a.sentAt >= context.repairAt && a.status >= 200 && a.status < 300)
      .reduce((min, a) => Math.min(min, a.answeredAt), Infinity);
    worst = Math.max(worst, first - context.repairAt);
  }
  return worst / 1000;
}

/** `dateModified` grows in real time across the nodes: a write sent after another was answered is stamped later. */
function realTimeOrder(attempts: Attempt[]): string[] {
  // A write repeated after a refusal may find its first attempt applied whole, change nothing and answer the
  // version that attempt made: that answer is no new stamp.
  const refusedBefore = (write: Attempt) =>
    attempts.some((a) => a.id === write.id && a.marker === write.marker && a.sentAt < write.sentAt && a !== write);
  const acked = attempts.filter(
    (a) => a.status >= 200 && a.status < 300 && a.dateModified !== undefined && !refusedBefore(a),
  );
  const bySent = [...acked].sort((a, b) => a.sentAt - b.sentAt);
  const byAnswer = [...acked].sort((a, b) => a.answeredAt - b.answeredAt);
  const violations: string[] = [];
  let answered = 0;
  let highest = -Infinity;
  let highestWrite: Attempt | undefined;
  for (const write of bySent) {
    while (answered < byAnswer.length && byAnswer[answered]!.answeredAt < write.sentAt) {
      const micros = toMicros(byAnswer[answered]!.dateModified!);
      if (micros > highest) {
        highest = micros;
        highestWrite = byAnswer[answered];
      }
      answered++;
    }
    if (toMicros(write.dateModified!) <= highest) {
      violations.push(
        `dateModified went back: ${write.node}'s ${write.marker} at ${write.dateModified}, sent after ${highestWrite?.node}'s ${highestWrite?.marker} at ${highestWrite?.dateModified} was answered`,
      );
    }
  }
  return violations.slice(0, 5);
}

export async function runScenario(scenario: Scenario): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), `faults-${scenario.name.replace(/\W+/g, '-')}-`));
  const started = now();
  const log = (message: string) =>
    console.error(`[faults] ${scenario.name} +${((now() - started) / 1000).toFixed(1)}s ${message}`);
  const { store, cleanup } = await scenario.store(dir);
  const { keys } = writeAuthFile(dir, WRITERS);
  store.authFile = join(dir, 'auth.ini');
  const nodes = [0, 1].map(
    (i) =>
      new RegistryNode({
        name: `node${i + 1}`,
        store,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        ...scenario.nodeOptions?.(i, dir),
      }),
  );
  let failed = true;
  try {
    await Promise.all(nodes.map((node) => node.start()));
    const load = new Load({
      nodeOf: (writer) => nodes[writer % nodes.length]!,
      keys,
      clientTimeoutMs: 120_000,
      editsPerAsset: 3,
    });
    const ctx: Context = {
      nodes,
      load,
      followers: [],
      dir,
      store,
      faultAt: 0,
      repairAt: 0,
      notes: [],
      violations: [],
      log,
    };
    const readable = () => scenario.readable?.(ctx) ?? nodes.filter((node) => !node.paused);
    ctx.followers = Array.from({ length: FOLLOWERS }, (_, i) => {
      let hop = i;
      return new StreamFollower(() => {
        const candidates = readable();
        return candidates[hop++ % candidates.length]!.url;
      });
    });
    for (const follower of ctx.followers) follower.start();
    // Followers hop to another node now and then, resuming with Last-Event-ID; a stream of a stopped node is left.
    const hopping = setInterval(() => {
      for (const follower of ctx.followers) if (Math.random() < 0.3) follower.reconnect();
    }, 1000);
    load.start();
    log('load running');
    await sleep(scenario.warmUpMs ?? 4000);
    await scenario.fault(ctx);
    log('repaired; load goes on');
    const limit = (scenario.recoveryLimitSeconds ?? 30) * 1000;
    const resumedEverywhere = () => Number.isFinite(recovery(ctx)) && recovery(ctx) >= 0;
    const until = now() + limit + 5000;
    await sleep(6000);
    while (!resumedEverywhere() && now() < until) await sleep(250);
    await load.stop();
    clearInterval(hopping);
    log(`load stopped: ${load.attempts.length} writes sent; checking`);
    const base = readable()[0]!.url;
    const verdict = await checkAll({
      base,
      load,
      followers: ctx.followers,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      excused: scenario.excused ? (attempt) => scenario.excused!(attempt, ctx) : undefined,
      streamWaitMs: scenario.streamWaitMs ?? 45_000,
    });
    const recoverySeconds = recovery(ctx);
    const violations = [...verdict.violations, ...ctx.violations, ...realTimeOrder(load.attempts)];
    if (!(recoverySeconds <= limit / 1000)) {
      violations.push(
        `writes did not resume within ${limit / 1000} s of the repair on every node (${recoverySeconds} s)`,
      );
    }
    failed = violations.length > 0;
    return { name: scenario.name, ...verdict, violations, recoverySeconds, notes: ctx.notes };
  } finally {
    await Promise.all(nodes.map((node) => node.stop().catch(() => undefined)));
    if (failed || process.env.FAULTS_KEEP) {
      log(`node logs:\n${nodes.map((n) => n.log().slice(-3000)).join('\n')}`);
      // What the nodes logged as errors (a 500's cause, a failing integrator), on lines CI prints (.ci/run): the
      // cause of a violation, not only its trace.
      for (const line of nodes.flatMap((node) => node.errors)) console.error(`  node log: ${line}`);
    }
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
