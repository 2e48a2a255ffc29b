// Opens a URL in the person's browser from the CLI, on each OS with the tool made for it,
// spawned with an argument array (no shell): `open` on macOS, `xdg-open` elsewhere on Unix,
// and on Windows rundll32's url.dll handler (cmd's `start` would need the URL quoted for cmd's
// own parser). Each by its full path (core/system-programs.ts). The URL is the consent page's:
// it holds no secret, so it may be on a command line.
import { spawn } from 'node:child_process';
import {
  MAC_PROGRAMS,
  type ProgramPath,
  pathProgram,
  windowsProgram,
} from '../core/system-programs';

interface BrowserCommand {
  /** The tool's name, for messages. */
  name: string;
  /** Its full path; undefined when it is not installed. */
  program: ProgramPath | undefined;
  args: string[];
}

export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): BrowserCommand {
  if (platform === 'darwin') return { name: 'open', program: MAC_PROGRAMS.open, args: [url] };
  if (platform === 'win32') {
    return {
      name: 'rundll32',
      program: windowsProgram('rundll32.exe', env),
      args: ['url.dll,FileProtocolHandler', url],
    };
  }
  return { name: 'xdg-open', program: pathProgram('xdg-open', env), args: [url] };
}

/** Resolves once the opener has taken the URL; rejects when there is none or it failed. */
export function openBrowser(url: string): Promise<void> {
  const command = browserCommand(url);
  const program: ProgramPath | undefined = command.program;
  const { name, args } = command;
  if (!program) return Promise.reject(new Error(`${name} is not installed`));
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'ignore', windowsHide: true });
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'ENOENT' ? `${name} is not installed` : `${name}: ${error.message}`,
        ),
      );
    });
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${name} could not open a browser (exit code ${code})`));
    });
  });
}
