/** The faults of §19, each set up with an existing tool, held, and repaired. */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { request } from 'undici';
import { toMicros } from '../../test/reliability/fixtures/common.js';
import {
  killFerretDb,
  killReplicatedPrimary,
  mountSmallFileSystem,
  replicatedPrimary,
  startReplicated,
  stopReplicated,
  Toxiproxy,
} from './engines.js';
import type { Context, Scenario } from './harness.js';
import { now, type Attempt } from './load.js';
import { API, sleep } from './nodes.js';

/** Settings of the run (run.ts): FerretDB's port and the replicated engine's base port. */
export interface Ports {
  ferretDb: number;
  replicatedBase: number;
}

let databases = 0;

/** A fresh database on the FerretDB started for the run. */
function onFerretDb(uri: string) {
  return async () => ({
    store: { dataDir: '', authFile: '', mongodbUri: uri.replace(/\/[^/]*$/, `/faults_${Date.now()}_${databases++}`) },
    cleanup: () => undefined,
  });
}

async function embedded(dir: string) {
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  return { store: { dataDir, authFile: '' }, cleanup: () => undefined };
}

const stopped = (context: Context, attempt: Attempt, node: string) =>
  attempt.node === node && attempt.sentAt < context.repairAt && attempt.answeredAt > context.faultAt;

/** The stamps of the ticks in flight on the clock document (the store's `counters`, `_id: 'clock'`). */
async function inflightTicks(uri: string): Promise<number[]> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const clock = await client
      .db()
      .collection<{ _id: string; inflight?: { t: number }[] }>('counters')
      .findOne({ _id: 'clock' });
    return (clock?.inflight ?? []).map((tick) => Number(tick.t));
  } finally {
    await client.close();
  }
}

async function health(url: string): Promise<any> {
  const res = await request(`${url}${API}/health`, { headersTimeout: 5000, bodyTimeout: 5000 });
  return { status: res.statusCode, json: JSON.parse(await res.body.text()) };
}

/** A paused node: stopped past its leases, then resumed (§19). */
function pausedNode(name: string, store: Scenario['store'], pauseMs: number, quick: boolean): Scenario {
  return {
    name,
    quick,
    store,
    async fault(context) {
      const [other, paused] = context.nodes as [Context['nodes'][0], Context['nodes'][0]];
      const uri = context.store.mongodbUri;
      // On MongoDB the pause must catch the node holding a tick (a lease): a tick still in flight seconds into the
      // pause is the paused node's, the other one's last milliseconds. Paused again until one is caught.
      let held: number[] = [];
      for (let attempt = 1; ; attempt++) {
        context.faultAt = now();
        paused.pause();
        if (!uri) break;
        await sleep(2500);
        const first = await inflightTicks(uri);
        await sleep(500);
        const second = new Set(await inflightTicks(uri));
        held = first.filter((t) => second.has(t));
        if (held.length > 0 || attempt >= 20) break;
        paused.resume();
        await sleep(300 + Math.random() * 700);
      }
      if (uri) context.notes.push(`${paused.name} stopped holding ${held.length} ticks (leases of 30 s)`);
      if (uri && held.length === 0) context.violations.push(`${paused.name} was never caught holding a lease`);
      context.log(`${paused.name} stopped (SIGSTOP) for ${pauseMs / 1000} s`);
      await sleep(pauseMs - (now() - context.faultAt));
      // Every follower's position before the node resumes: a write of the paused node stamped at or below it
      // afterwards was written on the strength of a lease it had lost.
      let delivered = -Infinity;
      for (const follower of context.followers) {
        for (const event of follower.result.received) delivered = Math.max(delivered, event.micros);
      }
      context.repairAt = now();
      paused.resume();
      context.log(`${paused.name} resumed (SIGCONT)`);
      await sleep(5000);
      // Answered late but stamped behind what the streams had passed: committed before the pause (then a stream
      // delivered it, as its writer wrote nothing more meanwhile), or after it, on the strength of a lost lease.
      const received = new Set(
        context.followers.flatMap((follower) =>
          follower.result.received.map((event) => `${event.id} ${event.dateModified}`),
        ),
      );
      const behind = context.load.attempts.filter(
        (a) =>
          a.node === paused.name &&
          a.kind !== 'create' &&
          a.sentAt < context.repairAt &&
          a.answeredAt > context.repairAt &&
          a.dateModified !== undefined &&
          toMicros(a.dateModified) <= delivered,
      );
      const onLostLease = behind.filter((a) => !received.has(`${a.id} ${a.dateModified}`));
      context.notes.push(
        `${paused.name}: ${behind.length} writes in flight at the pause answered after it behind the streams' position, all delivered: ${onLostLease.length === 0}`,
      );
      if (onLostLease.length > 0) {
        context.violations.push(
          `${onLostLease.length} writes of the paused node landed behind the feed, e.g. ${onLostLease[0]!.marker}`,
        );
      }
      const othersDuring = context.load.attempts.filter(
        (a) => a.node === other.name && a.sentAt >= context.faultAt && a.sentAt < context.repairAt,
      );
      const slowest = othersDuring.reduce((max, a) => Math.max(max, a.answeredAt - a.sentAt), 0);
      const acked = othersDuring.filter((a) => a.status >= 200 && a.status < 300).length;
      context.notes.push(
        `${other.name} during the pause: ${othersDuring.length} writes, ${acked} acknowledged, slowest ${Math.round(slowest)} ms`,
      );
      if (slowest > 2000) context.violations.push(`${other.name} waited ${Math.round(slowest)} ms for the paused node`);
      // SQLite has no lease: a process stopped inside its write transaction holds the file's write lock, and the
      // other node's writes are refused (503) after 1.5 s until it resumes (docs/reliability.md, "Faults").
      if (acked === 0 && uri) context.violations.push(`${other.name} wrote nothing during the pause`);
      const lostLease = context.load.attempts.filter(
        (a) =>
          a.node === paused.name && a.sentAt < context.repairAt && a.answeredAt > context.repairAt && a.status === 503,
      );
      context.notes.push(`${paused.name} on resuming: ${lostLease.length} writes in flight refused (503)`);
    },
    excused: (attempt, context) => stopped(context, attempt, context.nodes[1]!.name),
  };
}

/** The clock of node2 stepped back an hour mid-run (libfaketime re-reads its file every second). */
function clockSteppedBack(name: string, store: Scenario['store'], quick: boolean): Scenario {
  return {
    name,
    quick,
    store,
    nodeOptions: (index, dir) => (index === 1 ? { clockFile: join(dir, 'node2.faketime') } : {}),
    async fault(context) {
      context.faultAt = now();
      writeFileSync(join(context.dir, 'node2.faketime'), '-1h\n');
      context.log('node2 clock stepped back an hour');
      await sleep(12_000);
      context.repairAt = now();
    },
  };
}

/** The embedded store's file system filled under load, then space freed (§19). */
const fullDisk: Scenario = {
  name: 'disk full (embedded)',
  quick: true,
  async store(dir) {
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    // Room for the WAL (at most about 64 MiB: docs/decisions/0080-the-wal-is-bounded.md) and the data the load
    // writes before the filler takes the rest.
    const unmount = mountSmallFileSystem(dataDir, 256);
    return { store: { dataDir, authFile: '' }, cleanup: unmount };
  },
  async fault(context) {
    const filler = join(context.store.dataDir, 'filler');
    context.faultAt = now();
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(1 << 20, 1);
    try {
      for (;;) writeSync(fd, block);
    } catch {
      // ENOSPC: full.
    }
    for (let size = 1 << 16; size >= 512; size >>= 1) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size, 1));
      } catch {
        // the next smaller piece
      }
    }
    closeSync(fd);
    context.log('file system full');
    const refusedAt = now();
    const storageFull = () =>
      context.load.attempts.some(
        (a) => a.sentAt >= refusedAt && a.status === 503 && /Storage full/.test(a.errorText ?? ''),
      );
    for (let i = 0; i < 200 && !storageFull(); i++) await sleep(100);
    if (!storageFull()) context.violations.push('no write was refused with Storage full while the disk was full');
    await sleep(3000);
    for (const node of context.nodes) {
      const answer = await health(node.url);
      context.notes.push(`${node.name} health while full: ${answer.status} ${JSON.stringify(answer.json)}`);
      if (answer.status !== 200 || answer.json.writes !== 'refused' || answer.json.writesRefused !== 'Storage full') {
        context.violations.push(`${node.name} health while full: ${answer.status} ${JSON.stringify(answer.json)}`);
      }
      const feed = await request(`${node.url}${API}/assets?limit=10`);
      await feed.body.text();
      if (feed.statusCode !== 200)
        context.violations.push(`${node.name}: the feed answered ${feed.statusCode} while full`);
    }
    rmSync(filler);
    context.repairAt = now();
    context.log('space freed');

    for (const node of context.nodes) {
      let answer = await health(node.url);
      for (let i = 0; i < 100 && answer.json.writes !== 'accepted'; i++) {
        await sleep(100);
        answer = await health(node.url);
      }
      context.notes.push(
        `${node.name} health says writes are accepted ${((now() - context.repairAt) / 1000).toFixed(1)} s after space was freed`,
      );
      if (answer.json.writes !== 'accepted')
        context.violations.push(`${node.name} health after: ${JSON.stringify(answer.json)}`);
    }
    const late = context.load.attempts.filter((a) => a.sentAt > context.repairAt + 1000 && a.status === 503);
    if (late.length > 0)
      context.notes.push(`refused more than 1 s after space was freed: ${late.length}, e.g. ${late[0]!.errorText}`);
  },
  recoveryLimitSeconds: 5,
};

/** FerretDB killed (`kill -9`) and started again (§19). */
function engineRestarted(ferretPort: number, uri: string): Scenario {
  return {
    name: 'engine restarted (FerretDB)',
    quick: true,
    store: onFerretDb(uri),
    async fault(context) {
      context.faultAt = now();
      const restart = killFerretDb(ferretPort);
      context.log('FerretDB killed (kill -9)');
      await sleep(5000);
      await restart();
      context.repairAt = now();
      context.log('FerretDB started again');
    },
    recoveryLimitSeconds: 5,
    streamWaitMs: 60_000,
  };
}

/** Latency, resets, and a cut, between the nodes and FerretDB (§19). */
function network(ferretPort: number, uri: string): Scenario {
  const proxy = new Toxiproxy();
  return {
    name: 'network to the engine (Toxiproxy)',
    quick: true,
    async store() {
      await proxy.start(ferretPort);
      const database = `faults_net_${Date.now()}`;
      const proxied = uri.replace(/\/\/[^/]*\/[^?]*/, `//127.0.0.1:${proxy.listenPort}/${database}`);
      return { store: { dataDir: '', authFile: '', mongodbUri: proxied }, cleanup: () => proxy.stop() };
    },
    async fault(context) {
      context.faultAt = now();
      await proxy.addToxic('delay', 'latency', 'downstream', { latency: 2000 });
      context.log('answers delayed by 2 s');
      await sleep(8000);
      await proxy.removeToxic('delay');
      await proxy.addToxic('reset', 'reset_peer', 'upstream', { timeout: 0 });
      context.log('connections reset');
      await sleep(3000);
      await proxy.removeToxic('reset');
      await sleep(2000);
      await proxy.addToxic('cut', 'timeout', 'upstream', { timeout: 0 });
      context.log('network cut (nothing passes, connections stay open)');
      await sleep(10_000);
      await proxy.removeToxic('cut');
      context.repairAt = now();
    },
    recoveryLimitSeconds: 5,
    streamWaitMs: 60_000,
  };
}

/** The replicated engine's primary PostgreSQL killed (§19): Patroni fails over to the synchronous standby. */
function replicated(base: number): Scenario {
  return {
    name: 'primary killed (Patroni, synchronous)',
    quick: false,
    async store() {
      const uri = startReplicated(base);
      return {
        store: { dataDir: '', authFile: '', mongodbUri: uri.replace(/\/[^/?]*(\?|$)/, `/faults_rep$1`) },
        cleanup: () => stopReplicated(base),
      };
    },
    async fault(context) {
      const before = replicatedPrimary(base);
      context.faultAt = now();
      const killed = killReplicatedPrimary(base);
      context.repairAt = context.faultAt; // nothing to repair: the engine fails over by itself
      context.log(`primary ${killed} killed (kill -9 of its PostgreSQL)`);
      for (let i = 0; i < 120; i++) {
        await sleep(500);
        const after = (() => {
          try {
            return replicatedPrimary(base);
          } catch {
            return '';
          }
        })();
        if (after && after !== before) {
          context.notes.push(
            `Patroni promoted ${after} ${((now() - context.faultAt) / 1000).toFixed(1)} s after the kill`,
          );
          break;
        }
      }
      // The failover as the registry's clients see it: the first write sent after the kill that is acknowledged.
      for (let i = 0; i < 120; i++) {
        const first = context.load.attempts
          .filter((a) => a.sentAt > context.faultAt && a.status >= 200 && a.status < 300)
          .reduce((min, a) => Math.min(min, a.answeredAt), Infinity);
        if (Number.isFinite(first)) {
          context.notes.push(
            `failover: first write sent after the kill acknowledged ${((first - context.faultAt) / 1000).toFixed(1)} s after it`,
          );
          break;
        }
        await sleep(500);
      }
    },
    warmUpMs: 15_000,
    recoveryLimitSeconds: 60,
    streamWaitMs: 60_000,
  };
}

export function scenarios(ports: Ports, ferretUri: string | undefined): Scenario[] {
  const list: Scenario[] = [
    fullDisk,
    pausedNode('paused node (embedded)', embedded, 8_000, true),
    clockSteppedBack('clock stepped back (embedded)', embedded, true),
  ];
  if (ferretUri) {
    list.push(
      engineRestarted(ports.ferretDb, ferretUri),
      network(ports.ferretDb, ferretUri),
      pausedNode('paused node past its leases (FerretDB)', onFerretDb(ferretUri), 35_000, true),
      clockSteppedBack('clock stepped back (FerretDB)', onFerretDb(ferretUri), true),
    );
  }
  list.push(replicated(ports.replicatedBase));
  return list;
}
