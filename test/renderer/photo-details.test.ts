// Photo details in the app, in real Chromium against the real core and the reference service:
// the share sheet says how many photos lose their location, its "Keep photo details" switch
// sends them as they are, and History marks what left without its details.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { jpegSample, privateTags } from '../metadata/samples';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let dir: string;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-photo-details-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Drops files with their exact bytes (dropFiles in browser.ts takes text). */
async function dropBytes(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const list = files.map((f) => ({ name: f.name, base64: f.bytes.toString('base64') }));
  await page.locator('.dropzone').evaluate((target, items) => {
    const data = new DataTransfer();
    for (const f of items) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], f.name, { type: 'image/jpeg' }));
    }
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(
        new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }),
      );
    }
  }, list);
}

async function received(name: string): Promise<Buffer> {
  await expect
    .poll(() => harness.reference.uploads().filter((u) => u.name === name).length, {
      timeout: 15_000,
    })
    .toBe(1);
  const upload = harness.reference.uploads().find((u) => u.name === name);
  return readFile(harness.reference.storedPath(upload?.id ?? ''));
}

describe('photo details', () => {
  it('says "Location removed from 2 photos", sends them without it, and History marks them', async () => {
    const a = await readFile(jpegSample(dir, 'beach.jpg'));
    const b = await readFile(jpegSample(dir, 'dinner.jpg'));
    const { page, problems } = await openApp(browser, harness);
    await dropBytes(page, [
      { name: 'beach.jpg', bytes: a },
      { name: 'dinner.jpg', bytes: b },
    ]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.getByText('Location removed from 2 photos').waitFor();
    expect(await page.getByLabel('Keep photo details').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    for (const name of ['beach.jpg', 'dinner.jpg']) {
      const out = join(dir, `got-${name}`);
      await writeFile(out, await received(name));
      expect(privateTags(out)).toEqual([]);
    }
    await harness.settled();
    await showView(page, 'history');
    // Each photo's row says what it left without.
    await expect.poll(() => page.getByText(/^Sent without its .*location/).count()).toBe(2);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('"Keep photo details" sends this share\'s photo as it is (same sha256)', async () => {
    const bytes = await readFile(jpegSample(dir, 'keep-me.jpg'));
    const { page, problems } = await openApp(browser, harness);
    await dropBytes(page, [{ name: 'keep-me.jpg', bytes }]);
    await page.getByText('Location removed from 1 photo').waitFor();
    await page.getByLabel('Keep photo details').check();
    await page.getByText('Location kept in 1 photo').waitFor();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    expect(sha256(await received('keep-me.jpg'))).toBe(sha256(bytes));
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
