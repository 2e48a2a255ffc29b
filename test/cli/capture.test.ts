// `trayshare capture` on Linux, against the stand-in screenshot portal on a private D-Bus bus
// (the session bus with-keyring.mjs starts, where the keyring is too, as on a desktop): the screenshot is shared
// like `send`, its private copy is gone afterwards, and a cancel prints nothing.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../capture/test-portal';
import { TINY_PNG } from '../harness/tiny-png';
import { type AcmeWorkspace, closeAcme, loggedInAcme } from './acme-workspace';
import { jsonLines, runCli } from './run-cli';

describe.skipIf(process.platform !== 'linux')('trayshare capture', () => {
  let acme: AcmeWorkspace;
  let portal: TestPortal;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    // On the session bus with the keyring: the CLI reads its token there and asks the portal.
    [acme, portal] = await Promise.all([
      loggedInAcme('trayshare-cli-capture-'),
      startTestPortal({ sessionBus: true }),
    ]);
    env = acme.env;
  });
  afterAll(async () => {
    await portal?.close();
    if (acme) await closeAcme(acme);
  });

  const leftovers = () =>
    readdir(join(acme.dir, 'data', 'cli-state', 'pasted')).catch(() => [] as string[]);

  it('shares the screenshot to the channels and keeps no copy', async () => {
    portal.answer({ kind: 'file', png: TINY_PNG });
    const run = await runCli(
      ['capture', '--workspace', 'Acme', '--channels', 'C0RANDOM', '--json'],
      { env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [line] = jsonLines(run.stdout);
    expect(line).toMatchObject({ outcome: 'delivered' });
    const [upload] = acme.service.uploads();
    expect(upload).toMatchObject({ size: TINY_PNG.length, channels: ['C0RANDOM'] });
    expect(upload!.name).toMatch(/^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d\.png$/);
    expect(portal.calls.at(-1)).toMatchObject({ interactive: true });
    expect(await leftovers()).toEqual([]);
  });

  it('asks the portal for the whole screen with --screen', async () => {
    portal.answer({ kind: 'file', png: TINY_PNG });
    const run = await runCli(
      ['capture', '--screen', '--workspace', 'Acme', '--channels', 'C0RANDOM'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(portal.calls.at(-1)).toMatchObject({ interactive: false });
  });

  it('a cancel prints nothing, shares nothing and exits 0', async () => {
    portal.answer({ kind: 'cancelled' });
    const before = acme.service.uploads().length;
    const run = await runCli(['capture', '--workspace', 'Acme', '--channels', 'C0RANDOM'], {
      env,
    });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(acme.service.uploads()).toHaveLength(before);
  });

  it('says what the portal answered, and what to fix in the command', async () => {
    portal.answer({
      kind: 'error',
      name: 'org.freedesktop.portal.Error.Failed',
      text: 'No screen',
    });
    const failed = await runCli(['capture', '--workspace', 'Acme', '--channels', 'C0RANDOM'], {
      env,
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('The screenshot portal refused the capture: No screen');
    const both = await runCli(['capture', '--window', '--screen', '--preset', 'x'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Choose one of --window or --screen');
  });
});
