// How long a share's completion stays "marked but not sent": from the moment the queue's journal
// holds the "completing" mark (its write returned, so a killed process leaves it behind) to the
// moment the completion's first byte is handed to the socket. A process killed inside that
// window leaves files that the service never got a completion for, yet that must end "may have
// been delivered" (the mark forbids a second completion). The window cannot be shorter than the
// mark's fsync (a power loss must not lose a mark whose completion went out).
//
// Measured from the outside with strace, so nothing in the app is instrumented: the app's core
// shares files through the durable queue with the external protocol to the reference service
// (on a thread of its own, far-end.ts), and every write, writev and fsync of the process is
// traced with its time. For each completion request (a socket write that starts
// "POST /api/files.completeUploadExternal"), the window runs from the end of the last journal
// write before it that holds `"completing":true`.
//   npm run bench:completion-window -- [--shares 20] [--files 10] [--runs 1]
// Linux only (strace); prints the windows' median, p90 and max in ms, and the fsyncs inside.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);

interface DriverConfig {
  dataDir: string;
  serviceDir: string;
  files: string[][];
}

/** The traced process: the app's core sharing each group of files as one share. */
async function drive(configPath: string): Promise<void> {
  const config = JSON.parse(await readFile(configPath, 'utf8')) as DriverConfig;
  const { startFarEnd } = await import('./far-end');
  const { openApp } = await import('../test/external/helpers');
  const farEnd = await startFarEnd();
  const port = await farEnd.start({ dataDir: config.serviceDir }, () => {});
  const app = await openApp({ dataDir: config.dataDir });
  const workspace = await app.addWorkspace({
    name: 'Acme',
    baseUrl: `http://127.0.0.1:${port}`,
    protocol: 'external',
  });
  // One share after another, as a person drops folders: each share's completion then competes
  // with the next share's uploads and journal records, as in the crash tests.
  for (const paths of config.files) {
    await app.share({ target: { workspaceId: workspace.id, channels: ['C0DESIGN'] }, paths });
  }
  await app.settled();
  const summary = await farEnd.stop();
  await app.close();
  await farEnd.close();
  process.stdout.write(`${JSON.stringify({ messages: summary.messages.length })}\n`);
}

interface Traced {
  tid: number;
  start: number;
  end: number;
  call: string;
  text: string;
}

/** strace -f -ttt -T lines, with "unfinished ... resumed" pairs joined. */
function parseTrace(text: string): Traced[] {
  const out: Traced[] = [];
  const open = new Map<number, { start: number; head: string }>();
  for (const line of text.split('\n')) {
    const m = /^(\d+)\s+(\d+\.\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const tid = Number(m[1]);
    const at = Number(m[2]);
    let rest = m[3]!;
    if (rest.endsWith('<unfinished ...>')) {
      open.set(tid, { start: at, head: rest });
      continue;
    }
    let start = at;
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest);
    if (resumed) {
      const head = open.get(tid);
      open.delete(tid);
      if (!head) continue;
      start = head.start;
      rest = head.head + resumed[1]!;
    }
    const took = /<(\d+\.\d+)>$/.exec(rest);
    const call = /^(\w+)\(/.exec(rest)?.[1] ?? '';
    out.push({ tid, start, end: start + (took ? Number(took[1]) : 0), call, text: rest });
  }
  return out.sort((a, b) => a.start - b.start);
}

interface Windows {
  windowsMs: number[];
  /** fsyncs that ended inside a window (the mark's own, and any other). */
  fsyncsInside: number[];
}

function completionWindows(calls: readonly Traced[]): Windows {
  const windowsMs: number[] = [];
  const fsyncsInside: number[] = [];
  // Shares complete side by side, so a completion is matched to its mark by its first file_id
  // (the journal record holds it as `"fileId":"F…"`, the form as `%22id%22%3A%22F…%22`).
  const markEnds = new Map<string, number>();
  for (const c of calls) {
    if ((c.call === 'write' || c.call === 'pwrite64') && c.text.includes('\\"completing\\":true')) {
      for (const m of c.text.matchAll(/\\"fileId\\":\\"(\w+)\\",[^}]*\\"completing\\":true/g)) {
        markEnds.set(m[1]!, c.end);
      }
    } else if (
      (c.call === 'write' || c.call === 'writev') &&
      c.text.includes('POST /api/files.completeUploadExternal')
    ) {
      const id = /files=%5B%7B%22id%22%3A%22(\w+)%22/.exec(c.text)?.[1];
      const from = id === undefined ? undefined : markEnds.get(id);
      if (from === undefined) continue;
      windowsMs.push((c.start - from) * 1000);
      fsyncsInside.push(
        calls.filter(
          (f) => (f.call === 'fsync' || f.call === 'fdatasync') && f.end > from && f.end <= c.start,
        ).length,
      );
    }
  }
  return { windowsMs, fsyncsInside };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      shares: { type: 'string', default: '20' },
      files: { type: 'string', default: '10' },
      runs: { type: 'string', default: '1' },
      driver: { type: 'string' },
    },
  });
  if (values.driver) return drive(values.driver);
  const shares = Number(values.shares);
  const perShare = Number(values.files);
  const all: number[] = [];
  const fsyncs: number[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const root = await mkdtemp(join(tmpdir(), 'trayshare-completion-window-'));
    try {
      const files: string[][] = [];
      for (let s = 0; s < shares; s++) {
        const group: string[] = [];
        for (let f = 0; f < perShare; f++) {
          const path = join(root, `s${s}-f${f}.bin`);
          await writeFile(path, Buffer.alloc(16 * 1024, s * perShare + f));
          group.push(path);
        }
        files.push(group);
      }
      const configPath = join(root, 'config.json');
      await writeFile(
        configPath,
        JSON.stringify({
          dataDir: join(root, 'app'),
          serviceDir: join(root, 'service'),
          files,
        } satisfies DriverConfig),
      );
      const tracePath = join(root, 'trace.txt');
      const load = loadavg()[0]!;
      const child = spawn(
        'strace',
        [
          '-f',
          '-ttt',
          '-T',
          '-s',
          '8192',
          '-e',
          'trace=write,pwrite64,writev,fsync,fdatasync',
          '-o',
          tracePath,
          process.execPath,
          '--import',
          'tsx',
          self,
          '--driver',
          configPath,
        ],
        { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0) throw new Error(`the traced share failed (exit ${code})`);
      const { windowsMs, fsyncsInside } = completionWindows(
        parseTrace(await readFile(tracePath, 'utf8')),
      );
      const sorted = [...windowsMs].sort((a, b) => a - b);
      console.log(
        `run ${run + 1}: ${stdout.trim()} completions ${windowsMs.length}, window median ${quantile(sorted, 0.5).toFixed(2)} ms, p90 ${quantile(sorted, 0.9).toFixed(2)} ms, max ${sorted.at(-1)?.toFixed(2)} ms; fsyncs inside (median) ${quantile(
          [...fsyncsInside].sort((a, b) => a - b),
          0.5,
        )}; load ${load.toFixed(2)}`,
      );
      all.push(...windowsMs);
      fsyncs.push(...fsyncsInside);
    } finally {
      if (!process.env.KEEP_TRACE) await rm(root, { recursive: true, force: true });
      else console.log(`kept ${root}`);
    }
  }
  const sorted = all.sort((a, b) => a - b);
  console.log(
    `all: ${sorted.length} completions, window median ${quantile(sorted, 0.5).toFixed(2)} ms, p90 ${quantile(sorted, 0.9).toFixed(2)} ms, max ${sorted.at(-1)?.toFixed(2)} ms; fsyncs inside median ${quantile(
      fsyncs.sort((a, b) => a - b),
      0.5,
    )}`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
