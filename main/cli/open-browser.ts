// Opens a URL in the person's browser from the CLI, on each OS with the tool made for it,
// spawned with an argument array (no shell): `open` on macOS, `xdg-open` elsewhere on Unix,
// and on Windows rundll32's url.dll handler (cmd's `start` would need the URL quoted for cmd's
// own parser). The URL is the consent page's: it holds no secret, so it may be on a command
// line.
import { spawn } from 'node:child_process';

export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** Resolves once the opener has taken the URL; rejects when there is none or it failed. */
export function openBrowser(url: string): Promise<void> {
  const [command, args] = browserCommand(url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', windowsHide: true });
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'ENOENT' ? `${command} is not installed` : `${command}: ${error.message}`,
        ),
      );
    });
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} could not open a browser (exit code ${code})`));
    });
  });
}
