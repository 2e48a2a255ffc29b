// A screenshot taken with Capture… reaches the share sheet in real Chromium: the Linux path
// end to end, from the desktop's portal (a stand-in on a private D-Bus bus) through the real
// capture store and the shell's capture wiring to the page, then to the reference service.
// What a person checks: the name, the thumbnail, the last destination ready so Enter shares,
// the file gone once delivered, and nothing at all after a cancel.
import { access, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalCapturer } from '../../main/core/capture/capturers';
import { sampleScreenshot } from '../capture/sample-screenshot';
import { startTestPortal, type TestPortal } from '../capture/test-portal';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, dropFiles, openApp, screenshot } from './browser';
import { testBrowser } from './shared-browser';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe.skipIf(process.platform !== 'linux')('Capture… into the share sheet', () => {
  let harness: Harness;
  let browser: Browser;
  let portal: TestPortal;
  let png: Buffer;

  beforeAll(async () => {
    [harness, browser, portal] = await Promise.all([
      startHarness(),
      testBrowser(),
      startTestPortal(),
    ]);
    const { page } = await openApp(browser, harness);
    png = await sampleScreenshot(page, 1600, 1000);
    await closeApp(page);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await portal?.close();
  });

  const capture = () => harness.capture(portalCapturer(portal.address));
  /** The private folder's files (the harness's app data is beside its files folder). */
  const captures = (): Promise<string[]> =>
    readdir(join(dirname(harness.filesDir), 'app', 'state', 'pasted')).catch(() => []);

  for (const [width, height] of [
    [360, 520],
    [480, 640],
  ] as const) {
    it(`opens the capture with its name and thumbnail on the last destination; Enter shares it, and it is deleted once delivered (${width}×${height})`, async () => {
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      // The last share went to Random (not the default preset): the capture starts there.
      await dropFiles(page, [{ name: 'notes.txt', content: 'notes' }]);
      await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'Random' });
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await page.getByRole('heading', { name: 'Queue' }).waitFor();
      portal.answer({ kind: 'file', png });
      await capture();
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
      const name = (await page.locator('.file-list__name').textContent())!;
      expect(name).toMatch(/^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d( \(\d+\))?\.png$/);
      const thumb = page.getByRole('img', { name: `Preview of ${name}` });
      await page.locator('canvas.capture-preview__thumb[data-drawn="true"]').waitFor();
      // 1600×1000 fits 96×64 as 96×60, drawn at the page's pixel ratio.
      expect(
        await thumb.evaluate((c: HTMLCanvasElement) => [c.style.width, c.style.height]),
      ).toEqual(['96px', '60px']);
      // The thumbnail shows the picture: the desktop's blue at its corner.
      const corner = await thumb.evaluate((c: HTMLCanvasElement) => [
        ...c.getContext('2d')!.getImageData(1, 1, 1, 1).data,
      ]);
      expect(corner.slice(0, 3)).toEqual([0x2f, 0x5d, 0x8a]);
      await expect(page.getByText('Screenshot of an area').isVisible()).resolves.toBe(true);
      await expect(
        page.getByLabel('Preset', { exact: true }).evaluate((s: HTMLSelectElement) => s.value),
      ).resolves.toBe(harness.demo.randomPresetId);
      const share = page.getByRole('button', { name: 'Share', exact: true });
      expect(await share.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      if (width === 480) await screenshot(page, 'capture', 'light');

      const before = harness.reference.uploads().length;
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Queue' }).waitFor();
      await expect
        .poll(() => harness.reference.uploads().slice(before), { timeout: 15_000 })
        .toMatchObject([{ name, size: png.length, channels: ['C0RANDOM'] }]);
      const item = (await harness.app.listQueue()).find((i) => i.name === name)!;
      await expect
        .poll(() => harness.app.listQueue().then((q) => q.find((i) => i.id === item.id)?.state))
        .toBe('delivered');
      await expect.poll(() => exists(item.path)).toBe(false);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  it('Settings shows the capture shortcut, which can be changed and turned off', async () => {
    const { page, problems } = await openApp(browser, harness, { hash: 'settings' });
    await page.setViewportSize({ width: 360, height: 520 });
    const field = page.getByLabel('Capture shortcut', { exact: true });
    expect(await field.inputValue()).toBe('Ctrl+Shift+2');
    await field.focus();
    await page.keyboard.press('Control+Alt+P');
    await page.getByRole('button', { name: 'Save capture shortcut' }).click();
    await page.getByText('Capture shortcut Ctrl+Alt+P is ready.').waitFor();
    expect((await harness.app.getSnapshot()).preferences.captureShortcut).toBe(
      'CommandOrControl+Alt+P',
    );
    await page.getByRole('button', { name: 'Turn off capture shortcut' }).click();
    await page.getByText('Capture shortcut turned off.').waitFor();
    expect((await harness.app.getSnapshot()).preferences.captureShortcut).toBe('');
    // The share shortcut is untouched.
    expect((await harness.app.getSnapshot()).preferences.shortcut).not.toBe('');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a cancelled capture does nothing and says nothing', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    const heading = await page.getByRole('heading', { level: 1 }).textContent();
    const kept = await captures();
    portal.answer({ kind: 'cancelled' });
    const calls = portal.calls.length;
    await capture();
    expect(portal.calls.length).toBe(calls + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    expect(await page.locator('.file-list').count()).toBe(0);
    expect(harness.notified).toEqual([]);
    expect(await captures()).toEqual(kept);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a capture whose sheet is cancelled is deleted', async () => {
    const { page } = await openApp(browser, harness);
    portal.answer({ kind: 'file', png });
    await capture();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    const [path] = (await captures()).filter((n) => n.startsWith('Screenshot'));
    expect(path).toBeDefined();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect.poll(async () => (await captures()).includes(path!)).toBe(false);
    await closeApp(page);
  });

  it('a second capture after a cancelled one shows its own thumbnail, in the same page', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    for (let round = 0; round < 2; round += 1) {
      portal.answer({ kind: 'file', png });
      await capture();
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
      const name = (await page.locator('.file-list__name').textContent())!;
      await page.getByRole('img', { name: `Preview of ${name}` }).waitFor();
      await page.locator('canvas.capture-preview__thumb[data-drawn="true"]').waitFor();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.locator('.file-list').waitFor({ state: 'detached' });
    }
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a capture the page cannot decode opens with its name and how it was taken, no thumbnail; its details cannot be removed, so it is shared whole only once the person keeps them', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    const damaged = Buffer.concat([png.subarray(0, 64), Buffer.alloc(512, 7)]);
    portal.answer({ kind: 'file', png: damaged });
    await capture();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    const name = (await page.locator('.file-list__name').textContent())!;
    await page.getByText('Screenshot of an area').waitFor();
    expect(await page.locator('canvas.capture-preview__thumb').count()).toBe(0);
    const before = harness.reference.uploads().length;
    await page.keyboard.press('Enter');
    // Damaged, so its hidden details cannot be removed safely: it is not sent as it is unasked
    // (docs/how-uploads-behave.md); the person is told, and chooses to send it as it is.
    await page
      .getByText(/looks damaged/)
      .first()
      .waitFor();
    expect(harness.reference.uploads().slice(before)).toEqual([]);
    await page.getByRole('button', { name: 'Send it as it is' }).click();
    await expect
      .poll(() => harness.reference.uploads().slice(before), { timeout: 15_000 })
      .toMatchObject([{ name, size: damaged.length }]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a portal error is said, and nothing opens', async () => {
    const { page } = await openApp(browser, harness);
    portal.answer({
      kind: 'error',
      name: 'org.freedesktop.portal.Error.Failed',
      text: 'No screen',
    });
    await capture();
    expect(harness.notified.at(-1)).toEqual({
      title: 'Could not take the screenshot',
      body: 'The screenshot portal refused the capture: No screen',
    });
    expect(await page.locator('.file-list').count()).toBe(0);
    await closeApp(page);
  });
});
