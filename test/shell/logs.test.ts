// Settings → About's two buttons, as main answers them over IPC (sender-checked, arguments
// checked): "Open logs folder" asks shell.openPath for the log's folder, and says so when the
// OS could not; "Copy diagnostics" puts the core's diagnostics text on the clipboard, redacted,
// without the token. A page that is not the app's own gets neither.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { eventFrom } from './fake-electron';
import { type ShellHarness, startShellHarness } from './shell-harness';

describe('Settings → About: the logs', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('Open logs folder shows the folder the log is written to', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    await h.call(main, 'openLogsFolder');
    expect(h.openedPaths).toEqual([h.appLog.dir]);
  });

  it('says so when the OS could not open the folder', async () => {
    h = await startShellHarness({ openPathAnswer: 'No application is registered for folders' });
    h.shell.activate();
    const main = h.windows.open()[0]!;
    await expect(h.call(main, 'openLogsFolder')).rejects.toThrow(
      `Could not open the logs folder (${h.appLog.dir}): No application is registered for folders`,
    );
  });

  it('Copy diagnostics puts versions, protocols, counts and the last log lines on the clipboard', async () => {
    h = await startShellHarness();
    const [file] = await h.files('Budget-Secret-5Kd.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [file!] });
    await h.service.settled();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    await h.call(main, 'copyDiagnostics');
    const text = h.clipboard.written.at(-1) ?? '';
    expect(text).toMatch(/^Trayshare diagnostics, /);
    expect(text).toContain(`Node: ${process.versions.node}`);
    expect(text).toContain('Protocols: files.upload (1 workspace)');
    expect(text).toMatch(/Queue: 0 queued, 0 waiting, 0 sending, 1 delivered, 0 failed/);
    expect(text).toMatch(
      /Share [0-9a-f-]{8} via files\.upload, 1 file to 1 channel: 1 delivered \(a \.txt of 34 bytes\)/,
    );
    for (const secret of [DEMO_TOKEN, 'Budget-Secret-5Kd']) expect(text).not.toContain(secret);
  });

  it('a page that is not the app’s own gets neither', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const foreign = eventFrom(main, { url: 'https://evil.example/' });
    await expect(h.ipc.invoke(foreign, 'trayshare:copyDiagnostics')).rejects.toThrow(
      /Refused copyDiagnostics/,
    );
    await expect(h.ipc.invoke(foreign, 'trayshare:openLogsFolder')).rejects.toThrow(
      /Refused openLogsFolder/,
    );
    await expect(h.call(main, 'openLogsFolder', '/etc')).rejects.toThrow(/Refused openLogsFolder/);
    expect(h.clipboard.written).toEqual([]);
    expect(h.openedPaths).toEqual([]);
  });
});
