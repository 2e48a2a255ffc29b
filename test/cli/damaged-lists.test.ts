// Damaged history and channel-list files met by the CLI (issue 27, item 14): each is repaired as
// before, and now the command says once what was set aside and where, as it does for the
// settings file and the queue journal.
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../reference-service/server';
import { closeAcme, loggedInAcme } from './acme-workspace';
import { runCli } from './run-cli';

let service: ReferenceService;
let dir: string;
let state: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ service, dir, env } = await loggedInAcme('trayshare-damaged-lists-'));
  state = join(dir, 'data', 'cli-state');
});

afterAll(() => closeAcme({ service, dir, env }));

describe('damaged lists', () => {
  it('a damaged history: `history` says what it repaired once, keeps the damaged copy, and lists the rest', async () => {
    const file = join(dir, 'kept.txt');
    await writeFile(file, 'kept\n');
    const send = await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file], {
      env,
    });
    expect(send.code).toBe(0);
    const history = join(state, 'history', 'history.jsonl');
    // A line of garbage, and a last line cut short, as a crash or a full disk leaves them.
    await appendFile(history, 'garbage\n{"id":"x","at":');
    const damaged = await readFile(history, 'utf8');

    const first = await runCli(['history'], { env });
    expect(first.stderr).toMatch(
      /The upload history .*history\.jsonl was damaged \(2 lines could not be read\) and has been repaired; a copy of the damaged file is kept at /,
    );
    expect(first.stdout).toMatch(/\tdelivered\tkept\.txt /);
    expect(first.code).toBe(0);
    const kept = (await readdir(join(state, 'history'))).filter((n) => n.includes('.damaged-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(state, 'history', kept[0] as string), 'utf8')).toBe(damaged);

    const second = await runCli(['history'], { env });
    expect(second.stderr).not.toMatch(/damaged/);
    expect(second.stdout).toMatch(/\tdelivered\tkept\.txt /);
  });

  it('a damaged channel list: `channels` says it was set aside and where, and lists the channels from the service', async () => {
    const first = await runCli(['channels', '--workspace', 'Acme'], { env });
    expect(first.code).toBe(0);
    const folder = join(state, 'conversations');
    const [cache] = await readdir(folder);
    expect(cache).toMatch(/\.json$/);
    const path = join(folder, cache as string);
    await writeFile(path, '{"fetchedAt": 1, "conversations": [{"id": "C0GEN');

    const damaged = await runCli(['channels', '--workspace', 'Acme'], { env });
    expect(damaged.stderr).toContain(
      `The channel list kept in ${path} was damaged and set aside as ${path}.damaged-`,
    );
    expect(damaged.stderr).toContain('it is fetched again from the service');
    expect(damaged.stdout).toContain('C0GENERAL');
    expect(damaged.code).toBe(0);
    const aside = (await readdir(folder)).filter((n) => n.includes('.damaged-'));
    expect(aside).toHaveLength(1);

    const again = await runCli(['channels', '--workspace', 'Acme'], { env });
    expect(again.stderr).not.toMatch(/damaged/);
  });
});
