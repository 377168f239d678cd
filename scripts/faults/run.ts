/**
 * `npm run faults`: the fault suite of §19 (docs/reliability.md, "Faults"). Each scenario runs under write load from
 * eight clients across two registry nodes with change streams open, injects its fault with an existing tool,
 * repairs it and checks what §19 lists. Prints a table and, as its last line, the JSON summary; exits 1 when any
 * scenario lost an acknowledged write or broke a rule.
 *
 *   npm run faults                    every scenario (the replicated engine needs Patroni, etcd, HAProxy: Debian)
 *   npm run faults -- --quick         the short subset CI runs: no replicated engine
 *   npm run faults -- --only clock    the scenarios whose name contains the word
 *
 * FAULTS_FERRETDB_PORT (27204) is FerretDB's port, FAULTS_REPLICATED_BASE (27300) the replicated engine's first.
 */
import { startFerretDb, stopFerretDb } from './engines.js';
import { runScenario, type Outcome } from './harness.js';
import { faketimeAvailable } from './nodes.js';
import { scenarios } from './scenarios.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const ports = {
  ferretDb: Number(process.env.FAULTS_FERRETDB_PORT ?? 27204),
  replicatedBase: Number(process.env.FAULTS_REPLICATED_BASE ?? 27300),
};

function table(outcomes: Outcome[]): string {
  const rows = [
    ['scenario', 'acknowledged', 'lost', 'refused', 'recovery (s)', 'result'],
    ...outcomes.map((o) => [
      o.name,
      String(o.acknowledged),
      String(o.lost),
      String(o.refused),
      o.recoverySeconds.toFixed(1),
      o.violations.length === 0 && o.lost === 0 ? 'pass' : `FAIL (${o.violations.length})`,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}

async function main(): Promise<void> {
  if (!faketimeAvailable()) throw new Error('libfaketime is missing (Debian: apt-get install libfaketime)');
  const chosen = (uri: string | undefined) =>
    scenarios(ports, uri).filter((s) => (!quick || s.quick) && (only === undefined || s.name.includes(only)));
  const needsFerret = chosen('mongodb://x/y').some((s) => /FerretDB|Toxiproxy/.test(s.name));
  const ferretUri = needsFerret ? await startFerretDb(ports.ferretDb) : undefined;
  const outcomes: Outcome[] = [];
  try {
    for (const scenario of chosen(ferretUri)) {
      if (!needsFerret && /FerretDB|Toxiproxy/.test(scenario.name)) continue;
      const outcome = await runScenario(scenario);
      outcomes.push(outcome);
      console.error(`[faults] ${outcome.name}: ${outcome.violations.length === 0 ? 'pass' : 'FAIL'}`);
      for (const note of outcome.notes) console.error(`  note: ${note}`);
      for (const violation of outcome.violations) console.error(`  violation: ${violation}`);
    }
  } finally {
    if (ferretUri) stopFerretDb(ports.ferretDb);
  }
  console.log(table(outcomes));
  for (const outcome of outcomes) for (const note of outcome.notes) console.log(`${outcome.name}: ${note}`);
  const summary = outcomes.map(({ name, acknowledged, lost, refused, recoverySeconds }) => ({
    name,
    acknowledged,
    lost,
    refused,
    recoverySeconds: Math.round(recoverySeconds * 10) / 10,
  }));
  console.log(JSON.stringify({ scenarios: summary }));
  if (outcomes.some((o) => o.lost > 0 || o.violations.length > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
