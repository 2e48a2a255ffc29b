// What the log says at start and what "Copy diagnostics" gathers: versions, the protocols in
// use, the queue's counts and the last lines of the log. Plain text, built here so the app and
// the harness give the same, and redacted once more as a whole before it leaves.
import { arch, release, type } from 'node:os';
import { ACTIVE_STATES, FINISHED_STATES } from '../../portable/item-states';
import type { AppService } from '../api';
import { APP_VERSION } from '../version';
import { redactSecrets } from './redact';

/** process.versions as Electron fills it (electron and chrome are absent in plain Node). */
export interface Versions {
  node: string;
  electron?: string;
  chrome?: string;
}

function runtime(versions: Versions): string {
  const electron = versions.electron
    ? `Electron ${versions.electron}, Chrome ${versions.chrome ?? 'unknown'}, `
    : '';
  return `${electron}Node ${versions.node}`;
}

function osLine(): string {
  return `${type()} ${release()} (${process.platform} ${arch()})`;
}

/** The first line of each run: what runs, on what. */
export function startLine(
  client: 'app' | 'cli',
  versions: Versions = process.versions as Versions,
): string {
  const who = client === 'cli' ? 'Trayshare CLI' : 'Trayshare';
  return `${who} ${APP_VERSION} started: ${runtime(versions)}, ${osLine()}`;
}

const DIAGNOSTIC_LINES = 50;

/** The text "Copy diagnostics" puts on the clipboard. */
export async function diagnosticsText(deps: {
  service: Pick<AppService, 'getSnapshot' | 'listQueue'>;
  log: { tail(count: number): Promise<string[]> };
  versions?: Versions;
  now?: Date;
}): Promise<string> {
  const versions = deps.versions ?? (process.versions as Versions);
  const [snapshot, items, lines] = await Promise.all([
    deps.service.getSnapshot(),
    deps.service.listQueue(),
    deps.log.tail(DIAGNOSTIC_LINES),
  ]);
  const protocols = new Map<string, number>();
  for (const w of snapshot.workspaces)
    protocols.set(w.protocol, (protocols.get(w.protocol) ?? 0) + 1);
  const protocolText =
    [...protocols].map(([p, n]) => `${p} (${n} workspace${n === 1 ? '' : 's'})`).join(', ') ||
    'none (no workspace yet)';
  const counts = [...ACTIVE_STATES, ...FINISHED_STATES]
    .map((state) => `${items.filter((i) => i.state === state).length} ${state}`)
    .join(', ');
  const text = [
    `Trayshare diagnostics, ${(deps.now ?? new Date()).toISOString()}`,
    `App: Trayshare ${APP_VERSION}`,
    `Electron: ${versions.electron ? `${versions.electron} (Chrome ${versions.chrome ?? 'unknown'})` : 'none (the CLI or the test harness)'}`,
    `Node: ${versions.node}`,
    `OS: ${osLine()}`,
    `Protocols: ${protocolText}`,
    `Queue: ${counts}${snapshot.paused ? ' (paused)' : ''}`,
    `Detailed logs: ${snapshot.preferences.detailedLogs ? 'on' : 'off'}`,
    '',
    `Last ${lines.length} log line${lines.length === 1 ? '' : 's'}:`,
    ...lines,
    '',
  ].join('\n');
  return redactSecrets(text);
}
