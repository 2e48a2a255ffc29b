// Node's http and https modules, taken with `require` rather than `import`. Node 22 builds an
// ES module's view of node:http by reading every export, and three of them (WebSocket,
// CloseEvent, MessageEvent) are getters that load undici: about 40 ms of CPU, 10 MB of memory
// and 1.3 MB of heap at every start of the CLI and of the app's main process, for nothing they
// use. `require` returns the module as it is (bench/notes.md).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const http: typeof import('node:http') = require('node:http');
export const https: typeof import('node:https') = require('node:https');
