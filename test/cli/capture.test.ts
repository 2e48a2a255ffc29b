// `trayshare capture` on Linux, against the stand-in screenshot portal on a private D-Bus bus
// (the session bus with-keyring.mjs starts, where the keyring is too, as on a desktop): the screenshot is shared
// like `send`, its private copy is gone afterwards, and a cancel prints nothing.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

  it('uploads only the portal’s own PNG: not a forged answer, not a file that is no image', async () => {
    const planted = await mkdtemp(join(tmpdir(), 'trayshare-planted-'));
    const secret = join(planted, 'id_ed25519');
    await writeFile(secret, 'PRIVATE KEY, not a screenshot');
    try {
      // Another program on the bus answers first with the secret: the portal's image is sent.
      portal.answer({
        kind: 'file',
        png: TINY_PNG,
        forgedFirst: { uri: pathToFileURL(secret).href },
      });
      const run = await runCli(['capture', '--workspace', 'Acme', '--channels', 'C0RANDOM'], {
        env,
      });
      expect(run.code).toBe(0);
      expect(acme.service.uploads().at(-1)).toMatchObject({ size: TINY_PNG.length });
      // The portal itself names the secret: nothing is sent, and the person is told why.
      const before = acme.service.uploads().length;
      portal.answer({ kind: 'uri', uri: pathToFileURL(secret).href });
      const refused = await runCli(['capture', '--workspace', 'Acme', '--channels', 'C0RANDOM'], {
        env,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `The screenshot portal's file ${secret} is not a PNG image, so Trayshare did not take it.`,
      );
      expect(acme.service.uploads()).toHaveLength(before);
      expect(await readFile(secret, 'utf8')).toBe('PRIVATE KEY, not a screenshot');
      expect(await leftovers()).toEqual([]);
    } finally {
      await rm(planted, { recursive: true, force: true });
    }
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
