// The script the harness puts in front of the app's page (window.trayshare over HTTP): every
// method of the IPC contract, and nothing of the contract's schemas. It runs before the page's
// own script on every openApp of the renderer tests, so what it carries is paid each time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodNames } from '../../preload/contract';
import { type Harness, startHarness } from './server';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe('the page bridge', () => {
  it('offers every contract method, without bundling zod or the schemas', async () => {
    const response = await fetch(`${harness.url}/harness-bridge.js`);
    expect(response.status).toBe(200);
    const script = await response.text();
    // The harness validates each call with the schemas itself, in Node; the page needs only the
    // names. zod alone is hundreds of kilobytes, where the bridge is a few.
    expect(script).not.toMatch(/\bZodError\b/);
    expect(script.length).toBeLessThan(64 * 1024);
    const missing = methodNames.filter((name) => !script.includes(JSON.stringify(name)));
    expect(missing).toEqual([]);
  });
});
