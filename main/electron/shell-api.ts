// The contract methods that need OS user-interface APIs (ShellApi in preload/contract.ts).
import type { OpenDialogOptions } from 'electron';
import type { SetupLink, ShellApi } from '../../preload/contract';
import { parseSetupLink } from '../core/setup-link-check';
import { isLoopbackHost } from '../portable/credentials';

type LinkCheck = { ok: true; url: string } | { ok: false; error: string };

/** Only https links leave the app; file:, javascript:, http: and the rest are refused. */
export function checkExternalUrl(url: string): LinkCheck {
  return checkLink(url, false);
}

/**
 * Where Sign in with Slack may send the browser: https, or plain http to this machine only
 * (127.0.0.1, localhost, ::1), where the reference service and local Slack-style services run;
 * nothing on the network is reached without TLS.
 */
export function checkSignInUrl(url: string): LinkCheck {
  return checkLink(url, true);
}

function checkLink(url: string, loopbackHttp: boolean): LinkCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: 'That is not a link.' };
  }
  const allowedHttp =
    loopbackHttp && parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== 'https:' && !allowedHttp) {
    return { ok: false, error: `Only https links are opened (this one is ${parsed.protocol}).` };
  }
  if (parsed.username || parsed.password) {
    return { ok: false, error: 'Links with a user name or password are not opened.' };
  }
  return { ok: true, url: parsed.href };
}

export interface ShellApiDeps {
  platform: NodeJS.Platform;
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  writeClipboardText(text: string): Promise<void>;
  openExternal(url: string): Promise<void>;
  /** Takes (and clears) the paths waiting for the share sheet. */
  takePendingPaths(): string[];
  desktopNotes: readonly string[];
  keepsDropWindowOnTop: boolean;
  /** Takes (and clears) the set-up link waiting for the page. */
  takeSetupLink(): SetupLink | null;
  logs: LogsDeps;
}

/** Settings → About: the logs folder and the diagnostics. */
export interface LogsDeps {
  dir: string;
  /** Electron's shell.openPath: '' when it opened, else what went wrong. */
  openPath(path: string): Promise<string>;
  /** The diagnostics text, already redacted (core/log/about.ts). */
  diagnostics(): Promise<string>;
}

/** The native file picker's options: files, and folders where one dialog can offer both. */
function pickerOptions(platform: NodeJS.Platform): OpenDialogOptions {
  return {
    title: 'Choose files to share',
    buttonLabel: 'Share',
    // Windows and Linux dialogs pick either files or folders; folders can be dropped instead.
    properties:
      platform === 'darwin'
        ? ['openFile', 'openDirectory', 'multiSelections']
        : ['openFile', 'multiSelections'],
  };
}

export function createShellApi(deps: ShellApiDeps): ShellApi {
  return {
    async pickFiles() {
      const result = await deps.showOpenDialog(pickerOptions(deps.platform));
      return result.canceled ? [] : result.filePaths;
    },
    async copyText(text) {
      await deps.writeClipboardText(text);
    },
    async openExternal(url) {
      const checked = checkExternalUrl(url);
      if (!checked.ok) throw new Error(checked.error);
      await deps.openExternal(checked.url); // eng-disable OPEN_EXTERNAL_JS_CHECK (https only, checked above)
    },
    async takePendingPaths() {
      return deps.takePendingPaths();
    },
    async desktopNotes() {
      return [...deps.desktopNotes];
    },
    async keepsDropWindowOnTop() {
      return deps.keepsDropWindowOnTop;
    },
    async takeSetupLink() {
      return deps.takeSetupLink();
    },
    async readSetupLink(link) {
      const checked = parseSetupLink(link.trim());
      if (!checked.ok) throw new Error(checked.error);
      return checked.link;
    },
    async openLogsFolder() {
      const problem = await deps.logs.openPath(deps.logs.dir);
      if (problem) throw new Error(`Could not open the logs folder (${deps.logs.dir}): ${problem}`);
    },
    async copyDiagnostics() {
      await deps.writeClipboardText(await deps.logs.diagnostics());
    },
  };
}
