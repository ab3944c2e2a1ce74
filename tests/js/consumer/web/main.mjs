// The default entry in a bundle (Vite, webpack): the module is loaded by the
// package's top-level await.
import * as sb from 'mcp-switchboard';

import { run } from './checks.mjs';

document.body.dataset.result = JSON.stringify(run(sb));
