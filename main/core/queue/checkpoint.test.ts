// Checkpoints: an attempt saves where it got to, the next attempt at the item gets it back,
// across failures, restarts and crashes, until the item finishes or the person retries it.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allFinished,
  delivered,
  type FakeQueue,
  type FakeQueueOptions,
  failure,
  fakeAttempts,
  openFakeQueue,
  useQueueTestDirs,
  waitFor,
} from '../../../test/queue/kit';
import { parseJsonl } from '../history/jsonl-file';
import { JOURNAL_FILE } from './journal';

const dirs = useQueueTestDirs('trayshare-checkpoint-');

const setup = (opts: FakeQueueOptions = {}): Promise<FakeQueue> => openFakeQueue(dirs, opts);

async function oneFile(s: FakeQueue): Promise<string> {
  const dir = join(dirs.root, 'files');
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'a.txt');
  await writeFile(path, 'contents\n');
  const { items } = await s.queue.enqueue({
    workspaceId: 'W1',
    channels: ['C1'],
    comment: '',
    paths: [path],
  });
  return items[0]!.id;
}

// A copy of the data folder taken while the queue works is what a crash leaves on disk.
async function crashCopy(dir: string): Promise<string> {
  const copy = join(dirs.root, `crash-${Math.random().toString(36).slice(2)}`);
  await cp(dir, copy, { recursive: true });
  return copy;
}

async function journalText(dir: string): Promise<string> {
  return readFile(join(dir, JOURNAL_FILE), 'utf8');
}

const CP = { step: 3, fileId: 'F123' };

describe('upload queue: checkpoints', () => {
  it('hands a checkpoint to the next attempt after a transient failure, and clears it when the item finishes', async () => {
    const s = await setup();
    const id = await oneFile(s);
    const first = await s.fake.attempt(0);
    expect(first.hooks.resume).toBeUndefined();
    await first.hooks.checkpoint(CP);
    first.answer(failure('transient', 'http_503'));
    await waitFor(() => s.clock.pending() > 0, 'the backoff');
    s.clock.advance(10_000);
    const second = await s.fake.attempt(1);
    expect(second.hooks.resume).toEqual(CP);
    second.answer(delivered('F123'));
    await allFinished(s.queue);
    expect(s.queue.list().find((i) => i.id === id)?.state).toBe('delivered');
    // Finished: reopening rewrites the journal from what it holds, with no checkpoint left.
    const copy = await crashCopy(s.dir);
    await setup({ dir: copy });
    const records = parseJsonl(await journalText(copy)).values as {
      t: string;
      meta?: { resume?: unknown };
    }[];
    expect(records.filter((r) => r.t === 'add')).toHaveLength(1);
    expect(records.every((r) => (r.meta?.resume ?? null) === null)).toBe(true);
  });

  it('journals the checkpoint before the promise resolves, and keeps it out of the items the UI sees', async () => {
    const s = await setup();
    await oneFile(s);
    const first = await s.fake.attempt(0);
    await first.hooks.checkpoint({ ...CP, secretUrl: 'https://upload.example/abc?s=1' });
    const lines = parseJsonl(await journalText(s.dir)).values as Record<string, unknown>[];
    expect(lines.at(-1)).toMatchObject({ t: 'set', meta: { resume: { fileId: 'F123' } } });
    expect(JSON.stringify(s.queue.list())).not.toContain('upload.example');
    first.answer(delivered());
    await allFinished(s.queue);
  });

  it('resumes from the checkpoint after a crash before the body was complete', async () => {
    const s = await setup();
    const id = await oneFile(s);
    const first = await s.fake.attempt(0);
    await first.hooks.checkpoint(CP);
    const copy = await crashCopy(s.dir);

    const after = await setup({ dir: copy });
    const resumed = await after.fake.attempt(0);
    expect(resumed.item.id).toBe(id);
    expect(resumed.hooks.resume).toEqual(CP);
    resumed.answer(delivered('F123'));
    await allFinished(after.queue);
    expect(after.history.list().map((h) => [h.outcome, h.fileId])).toEqual([['delivered', 'F123']]);
  });

  it('goes on from the checkpoint after a crash once the body was complete, instead of marking it unknown', async () => {
    const s = await setup();
    const id = await oneFile(s);
    const first = await s.fake.attempt(0);
    await first.hooks.checkpoint(CP);
    await first.completeBody();
    const copy = await crashCopy(s.dir);

    const after = await setup({ dir: copy });
    const resumed = await after.fake.attempt(0);
    expect(resumed.item.id).toBe(id);
    expect(resumed.hooks.resume).toEqual(CP);
    expect(resumed.item.state).toBe('sending');
    resumed.answer(delivered('F123'));
    await allFinished(after.queue);
    expect(after.queue.list()[0]?.state).toBe('delivered');
  });

  it('leaves an item whose outcome is still being found out for the next open when the queue closes', async () => {
    // Like the external protocol: stopped after its body was complete, it answers 'unknown'.
    const fake = fakeAttempts();
    const s = await setup({
      runAttempt: (item, hooks) => {
        const inner = new AbortController();
        const result = fake.runAttempt(item, { ...hooks, signal: inner.signal });
        const attempt = fake.started.at(-1)!;
        hooks.signal.addEventListener('abort', () => {
          attempt.answer({
            kind: 'unknown',
            reason: { class: 'unknown-outcome', code: 'cancelled_after_send', message: 'stopped' },
          });
          inner.abort();
        });
        return result;
      },
    });
    const id = await oneFile(s);
    const first = await fake.attempt(0);
    await first.hooks.checkpoint(CP);
    await first.completeBody();
    await s.queue.close();
    await s.history.close();
    dirs.open.splice(0);

    const after = await setup({ dir: s.dir });
    const resumed = await after.fake.attempt(0);
    expect(resumed.item.id).toBe(id);
    expect(resumed.hooks.resume).toEqual(CP);
    resumed.answer(delivered('F123'));
    await allFinished(after.queue);
    expect(after.history.list().map((h) => h.outcome)).toEqual(['delivered']);
  });

  it('starts afresh when the person retries an item that ended with a checkpoint', async () => {
    const s = await setup();
    const id = await oneFile(s);
    const first = await s.fake.attempt(0);
    await first.hooks.checkpoint(CP);
    first.answer({
      kind: 'unknown',
      reason: { class: 'unknown-outcome', code: 'completed_earlier', message: 'may be there' },
    });
    await allFinished(s.queue);
    await s.queue.retry(id);
    const second = await s.fake.attempt(1);
    expect(second.hooks.resume).toBeUndefined();
    second.answer(delivered());
    await allFinished(s.queue);
  });

  it('refuses a checkpoint from an attempt that is already over', async () => {
    const s = await setup();
    await oneFile(s);
    const first = await s.fake.attempt(0);
    first.answer(delivered());
    await allFinished(s.queue);
    await expect(first.hooks.checkpoint(CP)).rejects.toThrow(/over/);
    expect(await journalText(s.dir)).not.toContain('F123');
  });
});
