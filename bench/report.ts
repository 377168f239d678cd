/**
 * The benchmark's result file format, its targets, and docs/performance.md with its chart
 * (docs/performance-scaling.svg), both written from one result.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuUse } from './cpu.js';
import type { StreamMeasure } from './stream.js';

export interface Measure {
  rps: number;
  /** Latency percentiles and maximum, milliseconds. */
  p50: number;
  p99: number;
  max: number;
  requests: number;
  bytesPerResponse: number;
  /** Responses whose status was not the expected one (200, 201 for creation). */
  unexpected: number;
  errors: number;
  /** Cores the registry (and, on MongoDB, the engine on this machine) used meanwhile (absent in older results). */
  cpu?: CpuUse;
}

export interface ScalingPoint {
  assets: number;
  seedSeconds: number;
  startupMs: number;
  listStart: Measure;
  listEnd: Measure;
  read: Measure;
  /** The registry process's peak RSS (VmHWM) while serving this size. */
  rssMB: number;
}

/** The server behind MONGODB_URI. */
export interface MongoServer {
  /** `MongoDB 7.0.14`, `FerretDB v2.5.0 on DocumentDB` (`FerretDB v1.24.2` in older results). */
  version: string;
  /** A server speaking MongoDB's protocol in its place (FerretDB). */
  standIn: boolean;
}

/** What the figures of a run on a stand-in measure, in plain words; undefined on MongoDB itself. */
export function serverNote(server: MongoServer): string | undefined {
  if (!server.standIn) return undefined;
  if (server.version.startsWith('FerretDB v1.')) {
    return (
      `These figures were taken on ${server.version}, which pushes down no sort and no range: every listing page ` +
      'read and sorted the whole collection, so they mostly measure it.'
    );
  }
  return (
    `These figures were taken on ${server.version} (PostgreSQL on this machine, durability off), a stand-in ` +
    'for MongoDB. What carries over to a MongoDB replica set: the round trips of each operation ' +
    '(test/store/mongo/round-trips.test.ts) and the index each read uses (test/store/mongo/explain.test.ts). What is ' +
    "the engine's, and would move on a replica set: the time per command (the engine column is its CPU); listing " +
    'pages, which DocumentDB sorts after its index scan (a cost growing with the rows in the range) where MongoDB ' +
    'reads the index in order and stops at the limit; creates and PATCHes, acknowledged by one server with fsync ' +
    'off, where a replica set waits for a majority and its journal.'
  );
}

export interface BenchResults {
  timestamp: string;
  /** Where the full run wrote this result (none for --quick). */
  resultFile?: string | undefined;
  command: string;
  quick: boolean;
  store: 'embedded' | 'mongodb';
  /** With the MongoDB store: which server (absent in older results). */
  mongoServer?: MongoServer;
  machine: { cpu: string; cores: number; memoryGB: number; os: string; node: string };
  pinning: string;
  settings: { connections: number; durationSeconds: number; warmupSeconds: number; registryLogLevel: string };
  /**
   * The limit: the bare server answering the scenario's exact bytes, measured right before each scenario
   * (`pairedWith`). Absent in older results, whose ratios are to the object route.
   */
  limit?: (Measure & { pairedWith?: string })[];
  /** The object route, the older reference, measured right before each scenario (`pairedWith`). */
  bare: (Measure & { pairedWith?: string })[];
  scenarios: Partial<Record<'read' | 'listing' | 'listingFields' | 'create' | 'patch', Measure>>;
  /** Each scenario's requests/s over its own limit measurement (over the object route's in older results). */
  ratios: Record<string, number>;
  /** Each scenario's requests/s over its own object-route measurement (`ratios` in older results). */
  ratiosToObjectRoute?: Record<string, number>;
  startupMs: { assets: number; ms: number }[];
  scaling: ScalingPoint[];
  peakRssMB: number;
  /** The change stream at the first size, per number of connected streams (absent in older results). */
  streams?: StreamMeasure[];
}

/** The change stream's targets, on the embedded store: p99 by number of connected streams. */
const STREAM_TARGETS: [streams: number, p99Ms: number][] = [
  [100, 100],
  [1000, 250],
];

interface TargetRow {
  target: string;
  measured: string;
  met: boolean | undefined;
}

const fmt = (n: number) => n.toLocaleString('en');
const fixed = (n: number, digits = 2) => n.toFixed(digits);

function evaluateTargets(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  const reference = r.limit === undefined ? 'the bare route (object)' : 'the limit (same bytes)';
  const ratio = (name: string, label: string, min: number) => {
    const value = r.ratios[name];
    rows.push({
      target: `${label} ≥ ${min} of ${reference}`,
      measured: value === undefined ? 'not measured' : fixed(value),
      met: value === undefined ? undefined : value >= min,
    });
  };
  ratio('read', 'Read one asset', 0.7);
  ratio('listing', 'Listing page of 100', 0.5);
  ratio('listingFields', 'Listing page of 100 with opt_fields=status,assetID', 0.4);
  ratio('create', 'Create', 0.25);
  ratio('patch', 'PATCH', 0.25);

  const p99s = Object.entries(r.scenarios).map(([name, m]) => [name, m!.p99] as const);
  const worst = p99s.reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0] as readonly [string, number]);
  rows.push({
    target: `p99 < 20 ms at ${r.settings.connections} connections`,
    measured: `${worst[1]} ms worst (${worst[0]}); ${p99s.map(([n, v]) => `${n} ${v}`).join(', ')}`,
    met: p99s.length === 0 ? undefined : worst[1] < 20,
  });

  // The embedded store's target is at 1,000,000 assets; the MongoDB run's at 100,000.
  const largeSize = r.store === 'mongodb' ? 100_000 : 1_000_000;
  const small = r.scaling.find((p) => p.assets === 10_000);
  const large = r.scaling.find((p) => p.assets === largeSize);
  if (small && large) {
    const start = small.listStart.rps / large.listStart.rps;
    const end = small.listEnd.rps / large.listEnd.rps;
    const worstSlowdown = Math.max(start, end);
    rows.push({
      target: `Listing page at ${fmt(largeSize)} within 1.5× of 10,000`,
      measured: `${fixed(worstSlowdown)}× (start of feed ${fixed(start)}×, end of feed ${fixed(end)}×; throughput 10k ÷ ${largeSize >= 1_000_000 ? `${largeSize / 1_000_000}M` : `${largeSize / 1000}k`})`,
      met: worstSlowdown <= 1.5,
    });
    rows.push({
      target: `RSS < 250 MB with ${fmt(largeSize)} assets`,
      measured: `${large.rssMB} MB (peak, VmHWM)`,
      met: large.rssMB < 250,
    });
  } else {
    rows.push({
      target: `Listing page at ${fmt(largeSize)} within 1.5× of 10,000`,
      measured: 'not measured',
      met: undefined,
    });
    rows.push({ target: `RSS < 250 MB with ${fmt(largeSize)} assets`, measured: 'not measured', met: undefined });
  }
  for (const [streams, limit] of STREAM_TARGETS) {
    const m = r.streams?.find((measure) => measure.streams === streams);
    const complete = m !== undefined && m.delivered === m.streams * m.events;
    rows.push({
      target: `Change stream p99 ≤ ${limit} ms with ${fmt(streams)} streams (embedded store)`,
      measured:
        m === undefined
          ? 'not measured'
          : `${m.p99} ms (p50 ${m.p50}, max ${m.max}; ${complete ? 'every event arrived' : `${fmt(m.delivered)} of ${fmt(m.streams * m.events)} arrived`})`,
      met: m === undefined || r.store !== 'embedded' ? undefined : complete && m.p99 <= limit,
    });
  }
  const startups = r.startupMs.map((s) => s.ms);
  const slowest = Math.max(...startups);
  rows.push({
    target: 'Start-up < 1 s',
    measured: `${slowest} ms slowest (${r.startupMs.map((s) => `${fmt(s.assets)}: ${s.ms} ms`).join(', ')})`,
    met: startups.length === 0 ? undefined : slowest < 1000,
  });
  return rows;
}

// ---------------------------------------------------------------- chart

const SERIES = [
  { key: 'listStart', label: 'listing, start of feed', color: '#1f77b4' },
  { key: 'listEnd', label: 'listing, end of feed', color: '#ff7f0e' },
  { key: 'read', label: 'read by id', color: '#2ca02c' },
] as const;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

/** Two panels over registry size (log scale): requests/s, and p50/p99 latency. */
function scalingChart(points: ScalingPoint[]): string {
  const width = 900;
  const height = 360;
  const panelW = 370;
  const panelH = 230;
  const top = 50;
  const lefts = [70, 520];
  const sizes = points.map((p) => p.assets);
  const logMin = Math.log10(Math.min(...sizes));
  const logMax = Math.log10(Math.max(...sizes));
  const x = (left: number, assets: number) =>
    left + (logMax === logMin ? panelW / 2 : ((Math.log10(assets) - logMin) / (logMax - logMin)) * (panelW - 40) + 20);

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
  );

  const panel = (
    left: number,
    title: string,
    unit: string,
    values: { color: string; dash?: string; get: (p: ScalingPoint) => number }[],
  ) => {
    const maxValue = niceMax(Math.max(...values.flatMap((v) => points.map(v.get))) * 1.1);
    const y = (value: number) => top + panelH - (value / maxValue) * panelH;
    out.push(
      `<text x="${left + panelW / 2}" y="${top - 22}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    );
    for (let i = 0; i <= 4; i++) {
      const value = (maxValue / 4) * i;
      out.push(
        `<line x1="${left}" x2="${left + panelW}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`,
        `<text x="${left - 6}" y="${y(value) + 4}" text-anchor="end">${fmt(Math.round(value * 10) / 10)}</text>`,
      );
    }
    out.push(
      `<text x="${left - 50}" y="${top + panelH / 2}" transform="rotate(-90 ${left - 50} ${top + panelH / 2})" text-anchor="middle">${unit}</text>`,
    );
    for (const assets of sizes) {
      out.push(`<text x="${x(left, assets)}" y="${top + panelH + 18}" text-anchor="middle">${fmt(assets)}</text>`);
    }
    out.push(
      `<text x="${left + panelW / 2}" y="${top + panelH + 36}" text-anchor="middle">assets in the registry (log scale)</text>`,
    );
    out.push(`<rect x="${left}" y="${top}" width="${panelW}" height="${panelH}" fill="none" stroke="#888"/>`);
    for (const v of values) {
      const coords = points.map((p) => `${x(left, p.assets).toFixed(1)},${y(v.get(p)).toFixed(1)}`);
      out.push(
        `<polyline points="${coords.join(' ')}" fill="none" stroke="${v.color}" stroke-width="2"${v.dash ? ` stroke-dasharray="${v.dash}"` : ''}/>`,
      );
      for (const c of coords) {
        const [cx, cy] = c.split(',');
        out.push(`<circle cx="${cx}" cy="${cy}" r="3.5" fill="${v.color}"/>`);
      }
    }
  };

  panel(
    lefts[0]!,
    'Throughput',
    'requests/s',
    SERIES.map((s) => ({ color: s.color, get: (p: ScalingPoint) => p[s.key].rps })),
  );
  panel(lefts[1]!, 'Latency (solid p50, dashed p99)', 'ms', [
    ...SERIES.map((s) => ({ color: s.color, get: (p: ScalingPoint) => p[s.key].p50 })),
    ...SERIES.map((s) => ({ color: s.color, dash: '5,4', get: (p: ScalingPoint) => p[s.key].p99 })),
  ]);
  let legendX = 70;
  for (const s of SERIES) {
    out.push(
      `<rect x="${legendX}" y="${height - 22}" width="14" height="4" fill="${s.color}"/>`,
      `<text x="${legendX + 20}" y="${height - 16}">${escapeXml(s.label)}</text>`,
    );
    legendX += 200;
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------- markdown

/** `registry / engine` cores, `–` where not measured. */
function cpuText(m: Measure): string {
  if (!m.cpu) return '–';
  return m.cpu.engine === undefined ? `${m.cpu.registry}` : `${m.cpu.registry} / ${m.cpu.engine}`;
}

function measureRow(name: string, m: Measure | undefined, ratio?: number, objectRatio?: number): string {
  if (!m) return `| ${name} | – | – | – | – | – | – | – |`;
  const ratioText = (value: number | undefined) => (value === undefined ? '–' : fixed(value));
  const bad = m.unexpected + m.errors > 0 ? ` (${m.unexpected + m.errors} unexpected)` : '';
  return `| ${name} | ${fmt(m.rps)}${bad} | ${m.p50} | ${m.p99} | ${fmt(m.bytesPerResponse)} | ${ratioText(ratio)} | ${ratioText(objectRatio)} | ${cpuText(m)} |`;
}

/** Where a result's page and chart are: the MongoDB run has its own. */
function reportFiles(r: Pick<BenchResults, 'store'>): { page: string; chart: string } {
  return r.store === 'mongodb'
    ? { page: 'docs/performance-mongodb.md', chart: 'docs/performance-mongodb-scaling.svg' }
    : { page: 'docs/performance.md', chart: 'docs/performance-scaling.svg' };
}

/** The line of a page after which its prose begins: written by hand, kept as it is when the figures are rewritten. */
const PROSE_MARKER = '<!-- The prose below is written by hand: `npm run bench` keeps it as it is. -->';

function performanceMarkdown(r: BenchResults, prose: string): string {
  const targets = evaluateTargets(r);
  const files = reportFiles(r);
  const mark = (met: boolean | undefined) => (met === undefined ? '–' : met ? '**met**' : '**missed**');
  const lines = [
    r.store === 'mongodb' ? '# Performance on MongoDB' : '# Performance',
    '',
    '<!-- Written by `npm run bench` (bench/run.ts) from its latest result, down to the prose, which it keeps. -->',
    '',
    `Latest figures: ${r.timestamp.slice(0, 16).replace('T', ' ')} UTC, ${r.store === 'embedded' ? 'embedded store (SQLite)' : 'MongoDB'}, ` +
      `result file \`${r.resultFile ?? 'none'}\`.`,
    '',
    ...(r.mongoServer ? [`Store server: ${r.mongoServer.version}. ${serverNote(r.mongoServer) ?? ''}`.trim(), ''] : []),
    '```sh',
    r.command,
    '```',
    '',
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGB} GB, ${r.machine.os}, Node ${r.machine.node}. ` +
      `Pinning: ${r.pinning}. Load: autocannon, ${r.settings.connections} connections over loopback, ` +
      `${r.settings.durationSeconds} s per scenario after ${r.settings.warmupSeconds} s of warm-up. ` +
      `The registry is the compiled service with LOG_LEVEL=${r.settings.registryLogLevel}.`,
    '',
    '## Targets',
    '',
    '| Target | Measured | |',
    '|---|---|---|',
    ...targets.map((t) => `| ${t.target} | ${t.measured} | ${mark(t.met)} |`),
    '',
    '## Scenarios (10,000 assets)',
    '',
    'Two references, both a Fastify server with no plugins and no logger, each measured right before each scenario so that ' +
      'both see the same machine. *The limit* answers the exact bytes the registry answered in that scenario (captured from one ' +
      'request of it), with the same status; for create and PATCH it receives the same request bodies and parses them as JSON. ' +
      '*The object route* returns a seeded asset as `{"data": …}`, serialised per request (the reference before issue 23). ' +
      'Registry requests carry the SERVER_ID cookie, as a client keeps it; writes carry a broker key. ' +
      "CPU: the cores the registry's process used during the measurement (/proc/<pid>/stat), and on MongoDB the " +
      "engine's processes on this machine after the slash.",
    '',
    '| Scenario | req/s | p50 ms | p99 ms | bytes/response | ratio to the limit | ratio to the object route | CPU cores (registry / engine) |',
    '|---|---|---|---|---|---|---|---|',
    ...(
      [
        ['read', 'read one asset (`GET /assets/{id}`, random ids)'],
        ['listing', 'listing page of 100 (`GET /assets`)'],
        ['listingFields', 'listing page of 100 with `opt_fields=status,assetID`'],
        ['create', 'create (`POST /assets`)'],
        ['patch', 'PATCH (`PATCH /assets/{id}`, a title, random of 1,000 assets)'],
      ] as const
    ).flatMap(([key, label]) => [
      ...(r.limit === undefined
        ? []
        : [
            measureRow(
              `limit (same bytes), before ${key}`,
              r.limit.find((b) => b.pairedWith === key),
            ),
          ]),
      measureRow(
        `object route, before ${key}`,
        r.bare.find((b) => b.pairedWith === key),
      ),
      r.limit === undefined
        ? measureRow(label, r.scenarios[key], undefined, r.ratios[key])
        : measureRow(label, r.scenarios[key], r.ratios[key], r.ratiosToObjectRoute?.[key]),
    ]),
    '',
    '## Scaling',
    '',
    'Seeded through `store.bulkInsert` (pending assets, in the feed); at each size the registry is restarted and measured: ' +
      'reads of ids drawn at random from the whole store (as configured: at the larger sizes most of them miss the served cache, ' +
      'and they fill it), then, on a second registry started without the cache (`CACHE_MB=0`, which would serve every page after ' +
      "the first from memory), the first page of the feed and the last page (an `offset` 100 rows before the end): the store's own growth. " +
      "Peak RSS is the larger of the two processes'.",
    '',
    `![Throughput and latency against registry size](${files.chart.slice('docs/'.length)})`,
    '',
    '| Assets | seeding s | start-up ms | listing start req/s (p50/p99 ms) | listing end req/s (p50/p99 ms) | read by id req/s (p50/p99 ms) | peak RSS MB |',
    '|---|---|---|---|---|---|---|',
    ...r.scaling.map(
      (p) =>
        `| ${fmt(p.assets)} | ${p.seedSeconds} | ${p.startupMs} | ${fmt(p.listStart.rps)} (${p.listStart.p50}/${p.listStart.p99}) | ` +
        `${fmt(p.listEnd.rps)} (${p.listEnd.p50}/${p.listEnd.p99}) | ${fmt(p.read.rps)} (${p.read.p50}/${p.read.p99}) | ${p.rssMB} |`,
    ),
    '',
    ...streamSection(r),
    PROSE_MARKER,
    '',
    prose.trim(),
    '',
  ];
  return lines.join('\n');
}

function streamSection(r: BenchResults): string[] {
  const interval = r.streams?.[0]?.intervalMs;
  const lines = [
    '## Change stream',
    '',
    'At the first size, with N streams (`GET /assets/changes`, one socket each, started at the head of the feed) ' +
      `connected to the registry: a PATCH every ${interval ?? '–'} ms, and for each the time from its answer to the arrival of its event on every ` +
      "stream (p50/p99/max over all streams and changes); RSS is the registry process's while the streams are connected.",
    '',
    '| Streams | changes | delivered | p50 ms | p99 ms | max ms | RSS MB |',
    '|---|---|---|---|---|---|---|',
  ];
  if (r.streams === undefined || r.streams.length === 0)
    return [...lines, '| not measured in this run | | | | | | |', ''];
  return [
    ...lines,
    ...r.streams.map(
      (m) =>
        `| ${fmt(m.streams)} | ${m.events} | ${fmt(m.delivered)} of ${fmt(m.streams * m.events)} | ${m.p50} | ${m.p99} | ${m.max} | ${m.rssMB} |`,
    ),
    '',
  ];
}

/** Writes the result's page (its prose kept) and chart (reportFiles); answers their paths. */
export function writeReport(r: BenchResults, root: string): string[] {
  const files = reportFiles(r);
  const prose = readProse(join(root, files.page));
  writeFileSync(join(root, files.chart), scalingChart(r.scaling));
  writeFileSync(join(root, files.page), performanceMarkdown(r, prose));
  return [files.page, files.chart];
}

/** The prose of a page: what follows its PROSE_MARKER; none when the page or the marker is missing. */
function readProse(page: string): string {
  let text: string;
  try {
    text = readFileSync(page, 'utf8');
  } catch {
    return '';
  }
  const at = text.indexOf(PROSE_MARKER);
  return at === -1 ? '' : text.slice(at + PROSE_MARKER.length);
}
