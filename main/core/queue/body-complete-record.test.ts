// "Body complete" is fsynced before the last bytes go; the record of the attempt's start is not,
// and a full disk can refuse it while a later, smaller record still fits (test/cli/
// full-disk-share.test.ts caught a journal holding a file as queued with its body sent). The
// body-complete record alone must bring a restart to "may have been delivered", never to
// sending the file again. A real journal in a temporary folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queuedItem } from '../../../test/queue/queued-item';
import { attemptHooks, type Entry, ItemStore, type Run } from './item-store';
import { newMeta } from './journal';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-body-complete-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const openStore = async () => {
  const store = new ItemStore<Entry>(
    dir,
    () => 1000,
    () => [],
    1000,
  );
  const opened = await store.open();
  return { store, opened };
};

describe('the body-complete record', () => {
  it('alone (the start of the attempt never reached the journal): a restart says "may have been delivered" and does not send it again', async () => {
    const first = await openStore();
    const entry: Entry = {
      item: queuedItem('I1', { path: join(dir, 'a.bin'), name: 'a.bin' }),
      meta: newMeta(),
    };
    await first.store.add([entry]);
    // The attempt runs as if its start had been journaled; that record was lost.
    entry.item.state = 'sending';
    const run: Run = {
      controller: new AbortController(),
      cancel: false,
      closing: false,
      done: Promise.resolve(),
    };
    entry.run = run;
    const hooks = attemptHooks(entry, run, { store: first.store, progressed: () => {} });
    await hooks.beforeBodyComplete?.();
    await first.store.close();

    const second = await openStore();
    try {
      const after = second.store.get('I1');
      expect(after?.item.state).toBe('unknown');
      expect(after?.item.error?.code).toBe('interrupted_after_body');
      expect(second.opened.finished.map((e) => e.item.id)).toEqual(['I1']);
    } finally {
      await second.store.close();
    }
  });
});
