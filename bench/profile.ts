/**
 * Where a server's CPU time went, from a V8 `.cpuprofile` (`node --cpu-prof`): self time per function and per
 * part of the stack (the registry's own layers, Fastify, the store's driver, JSON, the garbage collector), as
 * shares of the busy time (idle excluded). `npm run bench -- --profile` writes one profile per scenario and
 * prints this summary of each; `tsx bench/profile.ts <file.cpuprofile>` prints it for any profile.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  busyMs: number;
  /** Share of busy time per part, largest first. */
  parts: [part: string, share: number][];
  /** The functions with the most self time. */
  functions: [fn: string, share: number][];
}

/** The part of the system a frame belongs to, from its script's path. */
function partOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === '(program)') return 'V8 / native (program)';
    if (functionName === '(idle)') return 'idle';
    if (/^(JSON|stringify|parse)/.test(functionName)) return 'JSON (V8)';
    return 'native';
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/src\/([^/]+)\//.exec(url);
  if (own) return `src/${own[1]}`;
  if (url.startsWith('node:')) return 'node core';
  return url.split('/').slice(-1)[0] ?? url;
}

export function summarise(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }

  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)!.callFrame;
    const part = partOf(frame);
    if (part === 'idle') continue;
    busy += micros;
    parts.set(part, (parts.get(part) ?? 0) + micros);
    const where =
      frame.url === '' ? '' : ` ${frame.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${frame.lineNumber + 1}`;
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const ranked = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([key, micros]): [string, number] => [key, Math.round((micros / busy) * 1000) / 10]);
  return { busyMs: Math.round(busy / 1000), parts: ranked(parts), functions: ranked(functions).slice(0, top) };
}

export function formatSummary(summary: ProfileSummary): string {
  const lines = [`  busy ${summary.busyMs} ms; by part:`];
  for (const [part, share] of summary.parts.filter(([, share]) => share >= 1))
    lines.push(`    ${String(share).padStart(5)} %  ${part}`);
  lines.push('  functions with the most self time:');
  for (const [fn, share] of summary.functions) lines.push(`    ${String(share).padStart(5)} %  ${fn}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile.ts') && process.argv[2]) {
  console.log(formatSummary(summarise(process.argv[2], 25)));
}
