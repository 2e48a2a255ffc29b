// A screenshot on the clipboard, shared through the global shortcut or the tray's "Share
// clipboard": saved as a PNG in the state folder, shared like a file over real HTTP to the
// reference service, and the temporary PNG removed once it is delivered.
import { access } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TINY_PNG } from '../harness/tiny-png';
import { type ShellHarness, startShellHarness } from './shell-harness';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('an image on the clipboard', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('the shortcut opens the share sheet with it as a PNG, removed once delivered', async () => {
    h = await startShellHarness({ preferences: { shortcut: 'Control+Alt+S' } });
    h.clipboard.formats.set('image/png', new Uint8Array(TINY_PNG));
    h.shortcut.press('Control+Alt+S');
    await vi.waitFor(() => expect(h.windows.byHash('share')).toBeDefined());
    const main = h.windows.byHash('share')!;
    const [request] = main.webContents.eventsSent('share-requested') as { paths: string[] }[];
    const path = request!.paths[0]!;
    expect(request!.paths).toHaveLength(1);
    expect(dirname(path)).toBe(join(h.dir, 'app', 'state', 'pasted'));
    expect(basename(path)).toMatch(/^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d\.png$/);

    await h.call(main, 'share', { target: { presetId: h.demo!.randomPresetId }, paths: [path] });
    await vi.waitFor(() =>
      expect(h.reference.uploads().map((u) => u.name)).toContain(basename(path)),
    );
    expect(h.reference.uploads()[0]).toMatchObject({
      size: TINY_PNG.length,
      channels: ['C0RANDOM'],
    });
    await vi.waitFor(async () => expect(await exists(path)).toBe(false));
  });

  it('copied files win over an image; the tray shares an image straight to a preset', async () => {
    h = await startShellHarness({ preferences: { shortcut: 'Control+Alt+S' } });
    const [file] = await h.files('report.pdf');
    // A file manager that also puts the file's icon on the clipboard.
    h.clipboard.formats.set('text/uri-list', `file://${file}`);
    h.clipboard.formats.set('image/png', new Uint8Array(TINY_PNG));
    h.shortcut.press('Control+Alt+S');
    await vi.waitFor(() => expect(h.windows.byHash('share')).toBeDefined());
    expect(h.windows.byHash('share')!.webContents.eventsSent('share-requested')).toEqual([
      { paths: [file] },
    ]);

    h.clipboard.formats.delete('text/uri-list');
    const clipMenu = h.tray.item('share-clipboard').submenu as MenuItemConstructorOptions[];
    (clipMenu.find((i) => i.id === `preset:${h.demo!.randomPresetId}`)!.click as () => void)();
    await vi.waitFor(() =>
      expect(h.reference.uploads().map((u) => u.name)).toEqual([
        expect.stringMatching(/^Screenshot .*\.png$/),
      ]),
    );
  });
});
