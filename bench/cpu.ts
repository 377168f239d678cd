/**
 * CPU used during a measurement, from /proc/<pid>/stat: the registry's process, and on MongoDB the engine's
 * processes beside it, so that a figure says whose time it is.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';

/** Clock ticks per second, the unit of /proc/<pid>/stat's times. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Seconds of CPU (user + system) in a /proc `stat` line, of a process or of one of its threads. */
function statSeconds(stat: string): number {
  // The fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** Seconds of CPU (user + system) a process has used so far; undefined when it is gone (or not on Linux). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return statSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Seconds of CPU each of a process's threads has used so far, summed by thread name (Node's worker threads share
 * one, as V8's do); the process's first thread is `main`. Empty when it is gone (or not on Linux).
 */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended between the listing and the read
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    threads.set(name, (threads.get(name) ?? 0) + statSeconds(stat));
  }
  return threads;
}

/**
 * The processes of the MongoDB engine behind `uri` on this machine: BENCH_ENGINE_PIDS (comma-separated) when set;
 * else the FerretDB and PostgreSQL processes scripts/ferretdb.sh started for the URI's port (their executables
 * are in its run folder, FERRETDB_RUN_DIR or $TMPDIR/claimrights-ferretdb2/<port>/), or a local `mongod`.
 * Empty when the engine runs elsewhere.
 */
export function enginePids(uri: string): number[] {
  const given = process.env.BENCH_ENGINE_PIDS;
  if (given)
    return given
      .split(',')
      .map(Number)
      .filter((pid) => pid > 0);
  const port = /^mongodb:\/\/(?:[^@/]*@)?[^/:,]+:(\d+)/.exec(uri)?.[1] ?? '27017';
  const runDir = `${join(process.env.FERRETDB_RUN_DIR ?? join(tmpdir(), 'claimrights-ferretdb2'), port)}/`;
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let exe: string;
    try {
      exe = readlinkSync(`/proc/${entry}/exe`);
    } catch {
      continue;
    }
    if (exe.startsWith(runDir) || basename(exe) === 'mongod') pids.push(Number(entry));
  }
  return pids;
}

/** Cores used (CPU seconds per second of wall time) by the registry and, when found, the engine. */
export interface CpuUse {
  registry: number;
  /** Absent when the engine's processes were not found on this machine. */
  engine?: number;
}

/**
 * Starts counting the CPU of the registry `registryPid` and of the engine's processes (`engine`, looked up again at
 * the end: PostgreSQL starts a process per new connection). `stop` answers the cores each used meanwhile.
 */
export function startCpuMeter(registryPid: number, engine?: () => number[]): { stop(): CpuUse } {
  const started = performance.now();
  const registryBefore = cpuSeconds(registryPid) ?? 0;
  const engineBefore = new Map((engine?.() ?? []).map((pid) => [pid, cpuSeconds(pid) ?? 0]));
  return {
    stop: () => {
      const wall = (performance.now() - started) / 1000;
      const cores = (seconds: number) => Math.round((seconds / wall) * 100) / 100;
      const use: CpuUse = { registry: cores((cpuSeconds(registryPid) ?? registryBefore) - registryBefore) };
      const after = engine?.() ?? [];
      if (after.length > 0 || engineBefore.size > 0) {
        let used = 0;
        for (const pid of new Set([...engineBefore.keys(), ...after])) {
          const before = engineBefore.get(pid) ?? 0;
          used += (cpuSeconds(pid) ?? before) - before;
        }
        use.engine = cores(used);
      }
      return use;
    },
  };
}
