// Which program listens on a port, where the OS can tell, so "every port is taken" can name it
// ("rclone (process 4242)") instead of leaving the person to guess. Each OS's own means:
// - Linux: /proc/net/tcp and tcp6 give a listening socket's inode, /proc/<pid>/fd links name the
//   process that holds it, /proc/<pid>/comm its name (proc(5)); only this user's processes can
//   be read, which is where a sign-in's rival usually is;
// - macOS: lsof -iTCP:<port> -sTCP:LISTEN, with -F for fields (p: process ID, c: command);
// - Windows: netstat -ano lists each listening socket's process ID, tasklist /FI "PID eq <pid>"
//   names it.
// Each tool by its full path (system-programs.ts).
// Anything that fails (a missing tool, no permission) is "cannot tell": never an error.
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { MAC_PROGRAMS, type ProgramPath, windowsProgram } from '../system-programs';

export interface PortHolder {
  pid: number;
  /** The program's name, when the OS gives it. */
  name?: string;
}

const TOOL_TIMEOUT_MS = 3000;

function run(file: ProgramPath, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: TOOL_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      resolve(error ? '' : String(stdout));
    });
  });
}

/** Inodes of the sockets listening on `port` (state 0A is LISTEN in /proc/net/tcp). */
async function listeningInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

async function linuxHolders(port: number): Promise<PortHolder[]> {
  const inodes = await listeningInodes(port);
  if (inodes.size === 0) return [];
  const holders: PortHolder[] = [];
  const pids = (await readdir('/proc').catch(() => [])).filter((d) => /^\d+$/.test(d));
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode && inodes.has(inode)) {
        const name = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
        holders.push({ pid: Number(pid), ...(name ? { name } : {}) });
        break;
      }
    }
  }
  return holders;
}

/** `lsof -F pc` output: "p<pid>" then "c<command>" for each process. */
export function parseLsof(out: string): PortHolder[] {
  const holders: PortHolder[] = [];
  for (const line of out.split(/\r?\n/)) {
    if (line.startsWith('p')) holders.push({ pid: Number(line.slice(1)) });
    else if (line.startsWith('c') && holders.length > 0) holders.at(-1)!.name = line.slice(1);
  }
  return holders;
}

async function macHolders(port: number): Promise<PortHolder[]> {
  return parseLsof(await run(MAC_PROGRAMS.lsof, ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fpc']));
}

/** The process IDs `netstat -ano` shows listening on TCP `port`. */
export function parseNetstat(out: string, port: number): number[] {
  const pids = new Set<number>();
  for (const line of out.split(/\r?\n/)) {
    // "  TCP    127.0.0.1:53682    0.0.0.0:0    LISTENING    4242" (or [::1]:53682). The state's
    // word is translated on some Windows languages; a listening socket's foreign address is not.
    const cols = line.trim().split(/\s+/);
    const listening = /^(0\.0\.0\.0|\[::\]):0$/.test(cols[2] ?? '');
    if (
      cols[0] === 'TCP' &&
      cols[1]?.endsWith(`:${port}`) &&
      listening &&
      /^\d+$/.test(cols[4] ?? '')
    ) {
      pids.add(Number(cols[4]));
    }
  }
  return [...pids];
}

async function windowsHolders(port: number): Promise<PortHolder[]> {
  const holders: PortHolder[] = [];
  for (const pid of parseNetstat(await run(windowsProgram('netstat.exe'), ['-ano']), port)) {
    const row = await run(windowsProgram('tasklist.exe'), [
      '/FI',
      `PID eq ${pid}`,
      '/FO',
      'CSV',
      '/NH',
    ]);
    const name = /^"([^"]+)"/.exec(row.trim())?.[1];
    holders.push({ pid, ...(name ? { name } : {}) });
  }
  return holders;
}

/** Who listens on `port`, as far as this OS tells; empty when it cannot tell. */
export async function portHolders(
  port: number,
  platform: NodeJS.Platform = process.platform,
): Promise<PortHolder[]> {
  try {
    if (platform === 'linux') return await linuxHolders(port);
    if (platform === 'darwin') return await macHolders(port);
    if (platform === 'win32') return await windowsHolders(port);
  } catch {
    // Cannot tell.
  }
  return [];
}

/** "rclone (process 4242)", or "process 4242" when the name is unknown. */
export function holderText(holder: PortHolder): string {
  return holder.name ? `${holder.name} (process ${holder.pid})` : `process ${holder.pid}`;
}
