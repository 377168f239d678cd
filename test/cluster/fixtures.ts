/** The cluster the cluster tests start: two node processes and HAProxy, on a store of the test's scratch. */
import { startCluster, type Cluster } from '../../scripts/cluster.js';
import { COOKIE_SECRET, type Scratch } from '../helpers/server.js';

/** Two nodes and the balancer on a store in `scratch` (removed by its clean-up, after the cluster stops). */
export async function startTestCluster(scratch: Scratch, env: Record<string, string>): Promise<Cluster> {
  const { dataDir, authFile } = await scratch.dataDir('registry-cluster-test-');
  return startCluster({
    nodes: 2,
    dataDir,
    output: 'buffer',
    env: {
      AUTH_FILE: authFile,
      COOKIE_SECRET,
      LOG_LEVEL: 'warn',
      VALIDATE_REPLIES: 'true',
      TZ: 'Europe/Kyiv',
      REDIS_URL: '',
      RATE_LIMIT_MAX: '1000000',
      // On the MongoDB pass of the suite the nodes share a fresh database instead of the folder.
      MONGODB_URI: scratch.mongoUri() ?? '',
      ...env,
    },
  });
}
