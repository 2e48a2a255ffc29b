// The `trayshare` command line: the app's core, without the window. This entry only answers
// `--version` and turns on Node's compile cache; everything else is in program.ts, imported
// after the cache is on so its modules come from the cache (bench/notes.md, start-up).
import nodeModule from 'node:module';
import { APP_VERSION } from '../core/version';
import { keepGoingWhenOutputCloses } from './closed-output';
import { compileCacheDir } from './compile-cache';

/** Node 22.1 and later; missing (and the cache simply off) on anything older. */
type EnableCompileCache = (dir?: string) => { status: number; message?: string };

keepGoingWhenOutputCloses();
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // What commander prints for the same option (program.ts), without loading commander, and
  // without opening the cache that nothing here would use.
  process.stdout.write(`${APP_VERSION}\n`);
} else {
  // A send's optimizer cap and connections, before the rest of the CLI loads (send-early.ts);
  // loaded for `send` only, so `--version` and the other commands load nothing more.
  if (args[0] === 'send' && (await import('./send-early')).beforeSend(args)) {
    // One turn of the event loop before the long synchronous load: a connection whose TCP
    // set-up is done (at once, to a nearby host or a proxy) sends its TLS ClientHello in this
    // turn's I/O phase; otherwise the hello waited for the whole load, 80-100 ms (bench/notes.md).
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Never fails: where the folder cannot be written or Node has no cache (or
  // NODE_DISABLE_COMPILE_CACHE=1), Node returns a status and the CLI runs as before, uncached.
  (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache?.(
    compileCacheDir(),
  );
  await import('./program');
}
