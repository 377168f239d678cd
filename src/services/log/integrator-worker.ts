/**
 * The integrator's thread (integrator-thread.ts): the log opened again from its source and integrated here, so that
 * its reads, hashes and synced COMMITs never hold up the requests' event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openLogSource } from '../../store/index.js';
import { LogIntegrator, type IntegratorLog } from './integrator.js';
import type { IntegratorThreadData, IntegratorThreadMessage } from './integrator-thread.js';

const port = parentPort!;
const { source, identity } = workerData as IntegratorThreadData;
const post = (message: IntegratorThreadMessage) => port.postMessage(message);
const log: IntegratorLog = {
  error: (details, message) => post({ log: 'error', details, message }),
  info: (details, message) => post({ log: 'info', details, message }),
};

const store = await openLogSource(source);
const integrator = new LogIntegrator(store, identity, log);
const started = integrator.start();
port.once('message', async () => {
  await integrator.stop();
  store.close();
  port.close();
});
await started;
post({ started: true });
