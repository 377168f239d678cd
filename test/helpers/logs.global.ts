/**
 * Vitest global set-up of the log capture (test/helpers/logs.ts): a fresh folder for the run's logs before any
 * test file, and after the last one the scan of every line the test servers logged. A leak fails the run; a clean
 * run's logs are removed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS, COOKIE_SECRET } from './keys.js';
import { leaksIn } from './logs.js';

export function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'registry-test-logs-'));
  process.env.REGISTRY_TEST_LOG_DIR = dir;
  return () => {
    const files = readdirSync(dir);
    const read = (name: string) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '');
    const secrets = [
      ...Object.values(KEYS),
      COOKIE_SECRET,
      ...files.filter((name) => name.startsWith('secrets-')).flatMap(read),
    ];
    const logs = files.filter((name) => name.endsWith('.log'));
    let lines = 0;
    const leaks: string[] = [];
    for (const name of logs) {
      const content = read(name);
      lines += content.length;
      leaks.push(...leaksIn(content, secrets).map((leak) => `${name}: ${leak}`));
    }
    if (leaks.length > 0) {
      throw new Error(
        `${leaks.length} log lines of the run give a secret away (logs kept in ${dir}):\n${leaks.slice(0, 20).join('\n')}`,
      );
    }
    process.stdout.write(`log capture: ${lines} lines of ${logs.length} test servers hold no secret\n`);
    rmSync(dir, { recursive: true, force: true });
  };
}
