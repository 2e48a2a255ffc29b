// Node's http and https modules, taken with `require` rather than `import`. Node 22 builds an
// ES module's view of node:http by reading every export, and three of them (WebSocket,
// CloseEvent, MessageEvent) are getters that load undici: about 40 ms of CPU, 10 MB of memory
// and 1.3 MB of heap at every start of the CLI and of the app's main process, for nothing they
// use. `require` returns the module as it is (bench/notes.md).
// Each is loaded on its first request: node:https brings tls and its secure context (~6 ms at
// the CLI's start), which a send to a loopback http:// service, or `--version`, never uses.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type HttpModule = Pick<typeof import('node:http'), 'request' | 'Agent'>;

let http: typeof import('node:http') | undefined;
let https: HttpModule | undefined;

/** node:http, loaded when first asked for: a request, or the sign-in's loopback listener. */
export function nodeHttp(): typeof import('node:http') {
  http ??= require('node:http') as typeof import('node:http');
  return http;
}

/** The module that requests `protocol` ('http:' or 'https:'), loaded when first asked for. */
export function httpModuleFor(protocol: string): HttpModule {
  if (protocol === 'https:') {
    https ??= require('node:https') as typeof import('node:https');
    return https;
  }
  return nodeHttp();
}
