// The queue's crash driver (crash-driver.ts) with a crash placed inside the journal's group
// commit, which no SIGKILL from outside can aim at:
//   between-records  a write that carries several records (a group) reaches the file only up to
//                    its middle record, then the process dies: the records after it, and the
//                    group's fsync, never happen.
//   during-fsync     the process dies while a group's fsync is under way, and the machine with
//                    it (power loss): everything written since the last fsync that returned is
//                    gone, but for a torn half line.
//   history-unsynced the machine loses power just after a journal fsync returned while History
//                    holds lines written since its own last fsync: History loses them (cut back
//                    to what its last fsync covered), the journal keeps all it has synced. It
//                    prints how many History bytes were lost ("history lost N bytes").
// Armed once the share is queued; it fires at the `group`-th write of several journal records
// (during-fsync: of several records, one of them a file's "body complete"; history-unsynced: at
// the `group`-th journal fsync while History has unsynced lines).
//   node --import tsx test/queue/group-commit-driver.ts <config.json>
// config: crash-driver's, plus { crash: 'between-records' | 'during-fsync' | 'history-unsynced',
// group: number }.
import { open, readFile } from 'node:fs/promises';
import { allFinished } from './finished';
import { openRealQueue } from './helpers';

interface DriverConfig {
  dataDir: string;
  baseUrl: string;
  channels: string[];
  paths?: string[];
  crash?: 'between-records' | 'during-fsync' | 'history-unsynced';
  group?: number;
}

/** Journal records are lines of {"t":…}; history entries and settings are not. */
function journalLines(data: unknown): string[] | undefined {
  if (typeof data !== 'string' || !data.startsWith('{"t":')) return undefined;
  return data.split('\n').filter(Boolean);
}

function die(): Promise<never> {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => {});
}

/** The FileHandle prototype, whose appendFile and sync the crash modes wrap. */
async function fileHandlePrototype(): Promise<FileHandleMethods> {
  const probe = await open(process.execPath, 'r');
  const proto = Object.getPrototypeOf(probe) as FileHandleMethods;
  await probe.close();
  return proto;
}

interface FileHandleMethods {
  appendFile: (this: object, data: unknown, opts?: unknown) => Promise<void>;
  sync: (this: object) => Promise<void>;
  stat: (this: object) => Promise<{ size: number }>;
  truncate: (this: object, len: number) => Promise<void>;
}

async function armCrash(mode: NonNullable<DriverConfig['crash']>, group: number) {
  const proto = await fileHandlePrototype();
  const appendFile = proto.appendFile;
  const sync = proto.sync;
  let armed = false;
  let groups = 0;
  /** Per journal handle: its size when its last fsync returned, and whether a group awaits one. */
  const synced = new WeakMap<object, number>();
  const groupPending = new WeakSet<object>();
  proto.appendFile = async function (data, opts) {
    const lines = journalLines(data);
    if (!armed || !lines) return appendFile.call(this, data, opts);
    if (!synced.has(this)) synced.set(this, (await proto.stat.call(this)).size);
    // During an fsync: a group that says some file's whole body may go (what a caller told
    // too early would act on).
    const eligible =
      lines.length >= 2 &&
      (mode === 'between-records' || lines.some((l) => l.includes('"bodySent":true')));
    if (!eligible || ++groups < group) return appendFile.call(this, data, opts);
    if (mode === 'between-records') {
      const whole = lines.slice(0, Math.ceil(lines.length / 2));
      await appendFile.call(this, `${whole.join('\n')}\n`, opts);
      return die();
    }
    await appendFile.call(this, data, opts);
    groupPending.add(this);
  };
  proto.sync = async function () {
    if (!groupPending.has(this)) {
      await sync.call(this);
      if (armed && synced.has(this)) synced.set(this, (await proto.stat.call(this)).size);
      return;
    }
    // A busy disk takes a while to sync; whoever was told "journaled" too early would already
    // be sending meanwhile. Then power is lost: the unsynced tail is gone but for half a line.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await proto.truncate.call(this, synced.get(this)!);
    await appendFile.call(this, '{"t":"set","id":"torn-by-power-loss');
    await sync.call(this);
    return die();
  };
  return () => {
    armed = true;
  };
}

/** History entries are lines of {"id":…}. */
function historyBytes(data: unknown): number | undefined {
  return typeof data === 'string' && data.startsWith('{"id":')
    ? Buffer.byteLength(data)
    : undefined;
}

async function armHistoryPowerLoss(group: number) {
  const proto = await fileHandlePrototype();
  const appendFile = proto.appendFile;
  const sync = proto.sync;
  let armed = false;
  let syncs = 0;
  /** History handles: their size when their last fsync returned, and their size now. */
  const history = new Map<object, { synced: number; size: number }>();
  const journals = new WeakSet<object>();
  // Once the power is out, nothing more reaches the disk or returns: a History fsync still under
  // way must not count its lines as kept while the cut below is being made.
  let powerOut = false;
  const never = new Promise<never>(() => {});
  proto.appendFile = async function (data, opts) {
    if (powerOut) return never;
    const bytes = historyBytes(data);
    if (armed && bytes !== undefined) {
      let h = history.get(this);
      if (!h) {
        const size = (await proto.stat.call(this)).size;
        h = { synced: size, size };
        history.set(this, h);
      }
      h.size += bytes;
    }
    if (armed && journalLines(data)) journals.add(this);
    return appendFile.call(this, data, opts);
  };
  proto.sync = async function () {
    if (powerOut) return never;
    await sync.call(this);
    if (powerOut) return never;
    const h = history.get(this);
    if (h) h.synced = h.size;
    if (!armed || !journals.has(this)) return;
    const unsynced = [...history].filter(([, v]) => v.size > v.synced);
    if (unsynced.length === 0 || ++syncs < group) return;
    // Power lost now: the journal keeps what this fsync covered; History loses its unsynced lines.
    powerOut = true;
    const cuts = unsynced.map(([fh, v]) => ({ fh, to: v.synced, bytes: v.size - v.synced }));
    let lost = 0;
    for (const cut of cuts) {
      await proto.truncate.call(cut.fh, cut.to);
      await sync.call(cut.fh);
      lost += cut.bytes;
    }
    process.stderr.write(`history lost ${lost} bytes\n`);
    return die();
  };
  return () => {
    armed = true;
  };
}

async function main(): Promise<void> {
  const configPath = process.argv[2];
  if (!configPath) throw new Error('usage: group-commit-driver.ts <config.json>');
  const config = JSON.parse(await readFile(configPath, 'utf8')) as DriverConfig;
  const token = process.env.TRAYSHARE_TEST_TOKEN;
  if (!token) throw new Error('TRAYSHARE_TEST_TOKEN is not set');
  const arm =
    config.crash === 'history-unsynced'
      ? await armHistoryPowerLoss(config.group ?? 1)
      : config.crash
        ? await armCrash(config.crash, config.group ?? 1)
        : () => {};

  const q = await openRealQueue({
    dir: config.dataDir,
    baseUrl: config.baseUrl,
    token: () => token,
    // One slot: the queue takes files by bytes in flight, ten small files to a slot, and the
    // crash is placed mid-run, with files delivered, files still to start and files under way.
    // At one slot this run's small files still go in rounds, as they did three at a time when
    // the setting counted files; at three slots (30 small files) they would all go at once.
    queue: { concurrency: () => 1 },
  });
  if (config.paths) {
    const { refused } = await q.queue.enqueue({
      workspaceId: 'W1',
      channels: config.channels,
      comment: 'group commit crash test',
      paths: config.paths,
    });
    if (refused.length > 0) throw new Error(`refused: ${JSON.stringify(refused)}`);
    arm();
    process.stderr.write('queued\n');
  }
  await allFinished(q.queue);
  const items = q.queue.list();
  await q.close();
  process.stdout.write(`${JSON.stringify(items)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
