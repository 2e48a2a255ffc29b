// `npm run trace`: the walk of one share (two files, Slack's external protocol) through main/,
// from the app service's share() to its History entries, against the reference service on
// 127.0.0.1. V8's precise coverage with call counts is reset just before share() and read at
// each 'history-changed' until both files are in History, so only the functions that ran for
// this share count (not start-up, not the trace's own look at History). The order is when a
// file first ran, from a CPU profile sampled alongside; a file too quick to be sampled is
// listed after the others. Prints the files, the entries into app-service.ts and into the
// settings modules. Not part of npm test: the figures are in bench/notes.md.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const mainDir = join(repoRoot, 'main');

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; count: number }[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}
interface CpuProfile {
  nodes: { id: number; callFrame: { url: string } }[];
  samples?: number[];
}

/** The file under main/ a script URL is, or undefined for anything else. */
function mainFile(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url.split('?')[0] ?? url);
  if (!path.startsWith(mainDir + sep)) return undefined;
  return relative(repoRoot, path).split(sep).join('/');
}

/** Calls per function (its name and offset) in one file. */
type FileCalls = Map<string, number>;

/** Adds one coverage reading's calls (a function's first range is its call count). */
function addCalls(into: Map<string, FileCalls>, result: ScriptCoverage[]): void {
  for (const script of result) {
    const file = mainFile(script.url);
    if (!file) continue;
    for (const fn of script.functions) {
      const range = fn.ranges[0];
      // The module's own top-level run (the range from offset 0) is its loading, not a call.
      if (!range || range.startOffset === 0 || range.count === 0) continue;
      const calls = into.get(file) ?? new Map<string, number>();
      const key = `${fn.functionName || '(anonymous)'}@${range.startOffset}`;
      calls.set(key, (calls.get(key) ?? 0) + range.count);
      into.set(file, calls);
    }
  }
}

const total = (calls: FileCalls | undefined) =>
  [...(calls?.values() ?? [])].reduce((a, b) => a + b, 0);

/** Files in the order they were first sampled. */
function firstSampled(profile: CpuProfile): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame.url]));
  const order: string[] = [];
  for (const id of profile.samples ?? []) {
    const file = mainFile(byId.get(id) ?? '');
    if (file && !order.includes(file)) order.push(file);
  }
  return order;
}

async function main(): Promise<void> {
  // Coverage starts before main/ is loaded: V8 counts calls only of functions compiled after.
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const { createAppService } = await import('../main/core/app-service');
  const { createNodeTransport } = await import('../main/core/upload/node-transport');
  const { createMemorySecretStore } = await import('../test/harness/memory-secrets');
  const { startReferenceService } = await import('../test/reference-service/server');
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-trace-'));
  const service = await startReferenceService({ dataDir: join(dir, 'service') });
  const app = await createAppService({
    dataDir: join(dir, 'app'),
    secrets: createMemorySecretStore(),
    transport: createNodeTransport(),
  });
  try {
    const ws = await app.addWorkspace({ name: 'Acme', baseUrl: service.url, protocol: 'external' });
    await app.setToken(ws.id, 'xoxb-test-token');
    const paths: string[] = [];
    await mkdir(join(dir, 'files'));
    for (const name of ['one.txt', 'two.txt']) {
      paths.push(join(dir, 'files', name));
      await writeFile(paths.at(-1) as string, `${name} `.repeat(5000));
    }
    // Warm up: the first share loads modules; the traced one is the second, as in daily use.
    await app.share({
      paths: [paths[0] as string],
      target: { workspaceId: ws.id, channels: ['general'] },
    });
    await app.settled();
    const inHistory = (await app.listHistory({})).length;

    const calls = new Map<string, FileCalls>();
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const off = app.on('history-changed', () => {
      void (async () => {
        addCalls(calls, (await session.post('Profiler.takePreciseCoverage')).result);
        const entries = (await app.listHistory({})).length;
        // The trace's own look at History is not the share's: read and dropped.
        await session.post('Profiler.takePreciseCoverage');
        if (entries >= inHistory + 2) done();
      })();
    });
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.start');
    await app.share({ paths, target: { workspaceId: ws.id, channels: ['general'] } });
    await finished;
    const { profile } = await session.post('Profiler.stop');
    off();
    print(calls, firstSampled(profile as CpuProfile));
  } finally {
    session.disconnect();
    await app.close();
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What every request or every read uses, whoever asks: the HTTP transport and the reading of
 * answers, the settings file's reading and repair, JSON lines on disk, main/portable/, and the
 * external protocol's gate (a first-come limit on work at once, like p-limit). The walk of
 * issue 22 counts the rooms a share passes, not these.
 */
const LIBRARIES = [
  'main/portable/',
  ...[
    'attempt',
    'classify',
    'env-proxy',
    'file-links',
    'file-source',
    'node-transport',
    'progress-meter',
    'transport',
  ].map((name) => `main/core/upload/${name}.ts`),
  ...['migrations', 'repair', 'schema', 'settings-access', 'settings-file', 'tokens-in-file'].map(
    (name) => `main/core/settings/${name}.ts`,
  ),
  'main/core/history/jsonl-file.ts',
  'main/core/upload/external/gate.ts',
];

function print(calls: Map<string, FileCalls>, sampled: string[]): void {
  const detail = process.argv.includes('--functions');
  const files = [...calls.keys()];
  const ordered = [
    ...sampled.filter((f) => calls.has(f)),
    ...files.filter((f) => !sampled.includes(f)).sort(),
  ];
  const width = Math.max(...ordered.map((f) => f.length));
  for (const [i, file] of ordered.entries()) {
    const late = sampled.includes(file) ? '' : '  (not sampled)';
    console.log(
      `${String(i + 1).padStart(3)}  ${file.padEnd(width)}  ${total(calls.get(file))} calls${late}`,
    );
    if (!detail) continue;
    for (const [fn, n] of calls.get(file) ?? []) console.log(`       ${fn}: ${n}`);
  }
  const sum = (test: (f: string) => boolean) =>
    files.filter(test).reduce((n, f) => n + total(calls.get(f)), 0);
  console.log(`files: ${files.length}`);
  const rooms = files.filter((f) => !LIBRARIES.some((lib) => f.startsWith(lib)));
  console.log(`of them rooms on the path (not the shared libraries below): ${rooms.length}`);
  console.log(`shared libraries: ${LIBRARIES.join(' ')}`);
  // Every file once, by its folder: the rooms and the libraries together, none left out.
  const byFolder = new Map<string, number>();
  for (const f of files) {
    const folder = f.slice(0, f.lastIndexOf('/'));
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  const folders = [...byFolder].sort(([a], [b]) => a.localeCompare(b));
  console.log(`by folder: ${folders.map(([folder, n]) => `${folder} ${n}`).join(', ')}`);
  console.log(
    `entries into main/core/app-service.ts: ${sum((f) => f === 'main/core/app-service.ts')}`,
  );
  // Every look at the settings goes through SettingsAccess.read, which reads the file: the
  // number of times the share consulted its settings (the keychain's token is not counted).
  const reads = [...(calls.get('main/core/settings/settings-access.ts') ?? [])]
    .filter(([fn]) => fn.startsWith('read@') || fn.startsWith('(anonymous)@'))
    .reduce((n, [, c]) => n + c, 0);
  console.log(
    `calls into main/core/settings/ (all its functions): ${sum((f) => f.startsWith('main/core/settings/'))}`,
  );
  console.log(`settings consulted (reads of the settings file): ${reads}`);
}

await main();
