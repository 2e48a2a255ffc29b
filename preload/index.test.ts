import { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GIVEN_PATHS_CHANNEL, methodNames, type TrayshareBridge } from './contract';

// The preload runs against a stand-in for Electron's renderer-side modules: it records what
// is exposed to the page and what goes over IPC.
const fake = vi.hoisted(() => {
  const exposed: Record<string, unknown> = {};
  const invoked: { channel: string; args: unknown[] }[] = [];
  return { exposed, invoked, emitter: null as unknown as import('node:events').EventEmitter };
});

vi.mock('electron', () => {
  fake.emitter = new EventEmitter();
  return {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => {
        fake.exposed[key] = api;
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        fake.invoked.push({ channel, args });
        return `result of ${channel}`;
      },
      on: (channel: string, l: (...a: unknown[]) => void) => fake.emitter.on(channel, l),
      removeListener: (channel: string, l: (...a: unknown[]) => void) =>
        fake.emitter.removeListener(channel, l),
    },
    webUtils: { getPathForFile: (file: { name: string }) => `/dropped/${file.name}` },
  };
});

let bridge: TrayshareBridge;
beforeAll(async () => {
  await import('./index');
  bridge = fake.exposed.trayshare as TrayshareBridge;
});

describe('preload bridge', () => {
  it('exposes exactly the contract methods plus on and pathForFile, under window.trayshare', () => {
    expect(Object.keys(fake.exposed)).toEqual(['trayshare']);
    expect(Object.keys(bridge).sort()).toEqual([...methodNames, 'on', 'pathForFile'].sort());
    for (const key of Object.keys(bridge)) {
      expect(typeof (bridge as unknown as Record<string, unknown>)[key]).toBe('function');
    }
  });

  it('has no way to read a token, and no generic invoke or send', () => {
    const keys = Object.keys(bridge);
    // Tokens are write-only from the page: set, save (answers with the check, never the token)
    // or clear, nothing that returns one.
    expect(keys.filter((k) => /token|secret|password|credential/i.test(k)).sort()).toEqual([
      'clearToken',
      'saveToken',
      'setToken',
    ]);
    for (const generic of ['invoke', 'send', 'sendSync', 'ipcRenderer', 'require', 'getToken']) {
      expect(keys).not.toContain(generic);
    }
  });

  it('sends each method on its own channel with its arguments', async () => {
    fake.invoked.length = 0;
    await expect(bridge.setPaused(true)).resolves.toBe('result of trayshare:setPaused');
    await bridge.share({ target: { presetId: 'p1' }, paths: ['/a'] });
    expect(fake.invoked).toEqual([
      { channel: 'trayshare:setPaused', args: [true] },
      { channel: 'trayshare:share', args: [{ target: { presetId: 'p1' }, paths: ['/a'] }] },
    ]);
  });

  it('gives listeners the payload only, and unsubscribes', () => {
    const seen: unknown[][] = [];
    const off = bridge.on('share-requested', (...args: unknown[]) => seen.push(args));
    const ipcEvent = { sender: 'the IpcRendererEvent', ports: [] };
    fake.emitter.emit('trayshare:event:share-requested', ipcEvent, { paths: ['/x'] });
    expect(seen).toEqual([[{ paths: ['/x'] }]]);
    off();
    fake.emitter.emit('trayshare:event:share-requested', ipcEvent, { paths: ['/y'] });
    expect(seen).toHaveLength(1);
    expect(fake.emitter.listenerCount('trayshare:event:share-requested')).toBe(0);
  });

  it('refuses to subscribe to a channel that is not a contract event', () => {
    expect(() => bridge.on('nope' as never, () => undefined)).toThrow(/Unknown event/);
  });

  it("resolves a dropped file's path through webUtils, and tells main the person handed it over", () => {
    expect(bridge.pathForFile({ name: 'a b.png' } as File)).toBe('/dropped/a b.png');
    expect(fake.invoked.at(-1)).toEqual({
      channel: GIVEN_PATHS_CHANNEL,
      args: [['/dropped/a b.png']],
    });
  });
});
