// The share sheet in real Chromium against the real core and the reference service.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, dropFiles, openApp } from './browser';
import { testBrowser } from './shared-browser';
import { itOnce } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-share-test-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function waitForUploads(names: string[]) {
  await expect
    .poll(() => harness.reference.uploads().filter((u) => names.includes(u.name)).length, {
      timeout: 15_000,
    })
    .toBe(names.length);
  return harness.reference.uploads().filter((u) => names.includes(u.name));
}

describe('share sheet', () => {
  it('on the external protocol, says and sends a share of three files as one message', async () => {
    const { app, demo, reference } = harness;
    await app.updateWorkspace(demo.workspaceId, { protocol: 'external' });
    try {
      const { page, problems } = await openApp(browser, harness);
      await dropFiles(page, [
        { name: 'one-a.txt', content: 'a' },
        { name: 'one-b.txt', content: 'bb' },
        { name: 'one-c.txt', content: 'ccc' },
      ]);
      await page.getByRole('heading', { name: 'Share 3 files' }).waitFor();
      await page.getByLabel('Comment').fill('All three');
      await expect
        .poll(() => page.locator('.messages-line').textContent())
        .toBe('3 files, one message');
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await expect
        .poll(() => reference.messages().filter((m) => m.initial_comment === 'All three'), {
          timeout: 15_000,
        })
        .toHaveLength(1);
      const [message] = reference.messages().filter((m) => m.initial_comment === 'All three');
      expect(message!.files).toHaveLength(3);
      expect(message!.channels).toEqual(['C0DESIGN', 'C0GENERAL']);
      expect(problems).toEqual([]);
      await closeApp(page);
    } finally {
      await harness.settled();
      // The other tests count the queue's rows and use files.upload.
      await app.clearFinished();
      await app.updateWorkspace(demo.workspaceId, { protocol: 'files.upload' });
    }
  });

  it("asks main to open the share's connections ahead while the sheet is open: its workspace and file count", async () => {
    const { page, problems } = await openApp(browser, harness);
    const asked: unknown[] = [];
    page.on('request', (request) => {
      if (!request.url().endsWith('/rpc')) return;
      const call = JSON.parse(request.postData() ?? '{}') as { method?: string; args?: unknown };
      if (call.method === 'prepareShare') asked.push(call.args);
    });
    await dropFiles(page, [
      { name: 'warm-a.txt', content: 'a' },
      { name: 'warm-b.txt', content: 'b' },
    ]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await expect.poll(() => asked).toContainEqual([harness.demo.workspaceId, 2]);
    // Nothing is sent until Share.
    expect(harness.reference.uploads().filter((u) => u.name.startsWith('warm-'))).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('sends two dropped files to a preset with a comment', async () => {
    const { page, problems } = await openApp(browser, harness);
    await dropFiles(page, [
      { name: 'mockup-a.txt', content: 'first mockup' },
      { name: 'mockup-b.txt', content: 'second mockup, a little longer' },
    ]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'Random' });
    await page
      .getByLabel('Preset', { exact: true })
      .selectOption({ label: 'Design review (default)' });
    await page.getByLabel('Comment').fill('Mockups for Thursday');
    await expect
      .poll(() => page.locator('.summary').textContent())
      // C0GENERAL was saved in the preset as a bare ID: its name comes from the channel list.
      .toBe('2 files → #design-review, #general in Acme, with comment');
    await page.getByRole('button', { name: 'Share', exact: true }).click();

    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    const uploads = await waitForUploads(['mockup-a.txt', 'mockup-b.txt']);
    for (const upload of uploads) expect(upload.channels).toEqual(['C0DESIGN', 'C0GENERAL']);
    // One message per file: the comment goes with the first file only.
    expect(uploads.map((u) => u.initial_comment).sort()).toEqual(['Mockups for Thursday', null]);
    expect(uploads.find((u) => u.name === 'mockup-b.txt')?.size).toBe(30);
    await expect
      .poll(() => page.locator('.share__files .badge--delivered').count(), { timeout: 15_000 })
      .toBe(2);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('can be driven with the keyboard alone', async () => {
    const path = join(dir, 'keyboard.txt');
    await writeFile(path, 'typed, not clicked');
    harness.pick([path]);
    const { page } = await openApp(browser, harness);
    await page.keyboard.press('Tab');
    const choose = page.getByRole('button', { name: 'Choose files…' });
    // Tab through the navigation to the drop zone's button, as a keyboard user would.
    for (
      let i = 0;
      i < 12 && !(await choose.evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();

    // Picking lands in the comment; focus walks back to the preset.
    expect(await page.getByLabel('Comment').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    const preset = page.getByLabel('Preset', { exact: true });
    for (
      let i = 0;
      i < 10 && !(await preset.evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Shift+Tab');
    }
    expect(await preset.evaluate((el) => el === document.activeElement)).toBe(true);
    // A visible focus ring: the outline Chromium draws for :focus-visible.
    expect(await preset.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('ArrowDown'); // Design review (default) → Random
    await page.keyboard.press('Tab');
    expect(await page.getByLabel('Comment').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Sent from the keyboard');
    await page.keyboard.press('Control+Enter');

    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    const [upload] = await waitForUploads(['keyboard.txt']);
    expect(upload?.channels).toEqual(['C0RANDOM']);
    expect(upload?.initial_comment).toBe('Sent from the keyboard');
    await closeApp(page);
  });

  it('checks typed channel IDs as you type; a missing file is left out before Share, one gone since after', async () => {
    const good = join(dir, 'notes.txt');
    await writeFile(good, 'notes');
    const missing = join(dir, 'gone.txt');
    const vanishing = join(dir, 'vanishing.txt');
    await writeFile(vanishing, 'here when picked');
    harness.pick([good, missing, vanishing]);
    const { page } = await openApp(browser, harness);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    // The missing file is refused in the sheet, with the reason, and not counted.
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    expect(
      await page.locator('.file-list__item').filter({ hasText: 'gone.txt' }).textContent(),
    ).toContain('Not shared: No such file or folder.');
    await page.getByRole('radio', { name: 'Channels' }).check();
    const channels = page.getByRole('combobox', { name: 'Channels' });
    await channels.fill('C0RANDOM, C0 DESIGN');
    await channels.press('Enter');
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toContain('contains a space');
    await channels.fill('C0RANDOM, C0DESIGN');
    await channels.press('Enter');
    await expect.poll(() => channels.inputValue()).toBe('');
    await expect
      .poll(() => page.locator('.summary').textContent())
      .toBe('2 files (1 left out) → #random, #design-review in Acme, no comment');
    // A file deleted after it was described is refused by Share itself, and listed after.
    await rm(vanishing);
    await page.getByRole('button', { name: 'Share', exact: true }).click();

    await page.getByRole('heading', { name: '1 file queued' }).waitFor();
    const refused = page.locator('.refused li');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toContain('vanishing.txt');
    const [upload] = await waitForUploads(['notes.txt']);
    expect(upload?.channels).toEqual(['C0RANDOM', 'C0DESIGN']);
    expect(upload?.initial_comment).toBeNull();
    await closeApp(page);
  });

  it('opens for paths the shell hands over: pending at start, then share-requested', async () => {
    const first = join(dir, 'from-tray.txt');
    const second = join(dir, 'from-file-manager.txt');
    await writeFile(first, 'tray');
    await writeFile(second, 'file manager');
    harness.setPending([first]);
    const { page } = await openApp(browser, harness);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    harness.emit('share-requested', { paths: [second] });
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    expect(await page.locator('.file-list__name').allTextContents()).toEqual([
      'from-tray.txt',
      'from-file-manager.txt',
    ]);
    harness.emit('show-view', 'history');
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    // The files are kept while the person looks elsewhere.
    await page.getByRole('button', { name: 'Share sheet' }).click();
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await closeApp(page);
  });
});

describe.each([
  [360, 520],
  [480, 640],
])('what the sheet says about the files before Share, at %i×%i', (width, height) => {
  // `test`: behaviour, run at 360×520 only; `it`: layout, at both sizes (sizes.ts).
  const test = itOnce(width);
  it("shows each file's size, a folder's file count, a total, and refuses an empty folder and a missing file in place", async () => {
    const root = await mkdtemp(join(dir, `sizes-${width}-`));
    const report = join(root, 'quarterly-report.pdf');
    await writeFile(report, 'r'.repeat(1500));
    const shots = join(root, 'screenshots');
    await mkdir(join(shots, 'mobile'), { recursive: true });
    await writeFile(join(shots, 'desktop.png'), 'd'.repeat(2000));
    await writeFile(join(shots, 'mobile', 'phone.png'), 'p'.repeat(500));
    const empty = join(root, 'empty-folder');
    await mkdir(empty);
    const missing = join(root, 'deleted-since.txt');
    harness.pick([report, shots, empty, missing]);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();

    // Four paths picked; three files can go (the report and the folder's two).
    await page.getByRole('heading', { name: 'Share 3 files' }).waitFor();
    const row = (name: string) => page.locator('.file-list__item').filter({ hasText: name });
    expect(await row('quarterly-report.pdf').locator('.file-list__size').textContent()).toBe(
      '1.5 KB',
    );
    expect(await row('screenshots').locator('.file-list__size').textContent()).toBe(
      'Folder · 2 files · 2.5 KB',
    );
    expect(await row('empty-folder').locator('.file-list__refused').textContent()).toMatch(
      /^Not shared: The folder holds no files/,
    );
    expect(await row('deleted-since.txt').locator('.file-list__refused').textContent()).toBe(
      'Not shared: No such file or folder.',
    );
    expect(await page.locator('.file-total').textContent()).toBe(
      'Total: 3 files, 4.0 KB (2 paths left out)',
    );
    // Every row's reason and Remove button is on screen, inside the window's width.
    for (const name of [
      'quarterly-report.pdf',
      'screenshots',
      'empty-folder',
      'deleted-since.txt',
    ]) {
      const remove = page.getByRole('button', { name: `Remove ${name}` });
      await remove.scrollIntoViewIfNeeded();
      const box = await remove.boundingBox();
      expect(box && box.x + box.width <= width, name).toBe(true);
    }
    expect(await page.getByRole('button', { name: 'Share', exact: true }).isEnabled()).toBe(true);

    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    // Nothing refused after Share: the sheet had already left those paths out.
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await expect
      .poll(() => harness.reference.uploads().length - before, { timeout: 15_000 })
      .toBe(3);
    const uploads = harness.reference.uploads().slice(before);
    expect(uploads.map((u) => `${u.name} ${u.size}`).sort()).toEqual([
      'desktop.png 2000',
      'phone.png 500',
      'quarterly-report.pdf 1500',
    ]);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  test('keeps Share off when nothing picked can be sent, and says why', async () => {
    const root = await mkdtemp(join(dir, `nothing-${width}-`));
    const empty = join(root, 'empty-folder');
    await mkdir(empty);
    harness.pick([empty]);
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 0 files' }).waitFor();
    const share = page.getByRole('button', { name: 'Share', exact: true });
    expect(await share.isDisabled()).toBe(true);
    expect(await page.getByRole('alert').textContent()).toBe(
      'This cannot be shared (the reason is beside it): remove it, or add files.',
    );
    // Adding a file that can go turns Share on.
    const file = join(root, 'after-all.txt');
    await writeFile(file, 'something');
    harness.pick([file]);
    await page.getByRole('button', { name: 'Add files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await share.isEnabled()).toBe(true);
    await closeApp(page);
  });

  test("refuses a file over the workspace's size limit in place, in the same units as its size", async () => {
    const root = await mkdtemp(join(dir, `limit-${width}-`));
    const big = join(root, 'too-big.mov');
    await writeFile(big, 'm'.repeat(1500));
    const small = join(root, 'fits.txt');
    await writeFile(small, 's'.repeat(500));
    const clips = join(root, 'clips');
    await mkdir(clips);
    await writeFile(join(clips, 'short.mov'), 'c'.repeat(500));
    await writeFile(join(clips, 'long.mov'), 'c'.repeat(1500));
    const { workspaceId } = harness.demo;
    await harness.app.updateWorkspace(workspaceId, { maxFileBytes: 1000 });
    try {
      harness.pick([big, small, clips]);
      const { page } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
      const row = (name: string) => page.locator('.file-list__item').filter({ hasText: name });
      // A folder sends what fits and says what it leaves out.
      expect(await row('clips').locator('.file-list__size').textContent()).toBe(
        'Folder · 1 file · 500 bytes',
      );
      expect(await row('clips').locator('.file-list__skipped').textContent()).toBe(
        '1 file inside is left out: long.mov: Too large: 1.5 KB; this workspace accepts files up to 1.0 KB.',
      );
      expect(await row('too-big.mov').locator('.file-list__refused').textContent()).toBe(
        'Not shared: Too large: 1.5 KB; this workspace accepts files up to 1.0 KB.',
      );
      expect(await page.locator('.file-total').textContent()).toBe(
        'Total: 2 files, 1.0 KB (1 path left out)',
      );
      await closeApp(page);
    } finally {
      await harness.app.updateWorkspace(workspaceId, { maxFileBytes: 1024 ** 3 });
    }
  });
});
