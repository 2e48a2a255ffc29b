// Links through Slack's external protocol, end to end in the app: the reference service answers
// files.completeUploadExternal as Slack documents it (id and title, no permalink), so the link
// the notification, the clipboard, the tray's Recent uploads and History show comes from
// files.info. A token without files:read still delivers, without a link, and the app says why
// once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startReferenceService } from '../reference-service/server';
import { type ShellHarness, startShellHarness } from './shell-harness';

describe('links through the external protocol', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('the notification, the copied link, the tray menu and History get the permalink from files.info', async () => {
    h = await startShellHarness({ preferences: { copyLinkOnDelivery: true } });
    expect(h.reference.config.completionAnswer).toBe('documented');
    await h.service.updateWorkspace(h.demo!.workspaceId, { protocol: 'external' });
    const paths = await h.files('board.png');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths });
    await h.service.settled();

    const [entry] = await h.service.listHistory({ search: 'board.png' });
    expect(entry?.outcome).toBe('delivered');
    const fileId = h.reference.uploads().at(-1)!.id;
    const link = `${h.reference.url}/files/U0TEST/${fileId}/board.png`;
    expect(entry?.permalink).toBe(link);
    await vi.waitFor(() => expect(h.clipboard.written.at(-1)).toBe(link));
    await vi.waitFor(() =>
      expect(
        h.notifications.find((n) => n.options.title === 'Shared board.png')?.options.body,
      ).toMatch(/Its link is on the clipboard/),
    );
    const recent = await vi.waitFor(() => {
      const items = (h.tray.item('recent').submenu as MenuItemConstructorOptions[]).filter((i) =>
        i.id?.startsWith('recent:'),
      );
      expect(items[0]?.enabled).toBe(true);
      return items[0]!;
    });
    h.clipboard.written.length = 0;
    (recent.click as () => void)();
    expect(h.clipboard.written).toEqual([link]);
  });

  it('a token without files:read: delivered without a link, and one notification says links need files:read', async () => {
    h = await startShellHarness();
    const dataDir = await mkdtemp(join(tmpdir(), 'trayshare-no-files-read-'));
    const scoped = await startReferenceService({
      dataDir,
      config: {
        tokens: {
          'xoxb-test-token': {
            user: 'U0TEST',
            channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM'],
            scopes: ['files:write', 'channels:read', 'groups:read', 'im:read', 'mpim:read'],
          },
        },
      },
    });
    try {
      await h.service.updateWorkspace(h.demo!.workspaceId, {
        baseUrl: scoped.url,
        protocol: 'external',
      });
      // A new base URL drops the saved token (it never goes to another origin): save it again.
      await h.service.setToken(h.demo!.workspaceId, 'xoxb-test-token');
      for (const name of ['one.txt', 'two.txt']) {
        const paths = await h.files(name);
        await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths });
        await h.service.settled();
      }
      const history = await h.service.listHistory({});
      expect(history.filter((e) => e.outcome === 'delivered').map((e) => e.permalink)).toEqual([
        undefined,
        undefined,
      ]);
      await vi.waitFor(() =>
        expect(h.notifications.filter((n) => /files:read/.test(n.options.body))).toHaveLength(1),
      );
    } finally {
      await scoped.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
