/** The server alone, as `node dist/src/server.js` started it before the one command (src/cli/main.ts). */
import { serveCommand } from './cli/serve.js';

void serveCommand(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exit(code);
});
