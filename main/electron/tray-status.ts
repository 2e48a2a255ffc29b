// What the tray icon, its tooltip and the taskbar progress say, derived from the queue.
import type { QueueItem } from '../../preload/contract';
import { plural } from '../core/plural';
import { isActiveState } from '../portable/item-states';

export type TrayState = 'idle' | 'uploading' | 'attention';

export interface TrayStatus {
  state: TrayState;
  /** Share of the bytes of active items sent, 0–100; null when nothing is active. */
  percent: number | null;
  /** Items queued, waiting or sending. */
  active: number;
  /** Items that failed or may have been delivered: the person should look. */
  problems: number;
  /** One line for the tooltip, with the percentage. */
  summary: string;
  /**
   * The menu's status entry: the summary without the percentage, so the menu's items change
   * only when the counts do (a new menu can close an open one on Linux's DBusMenu).
   */
  menuSummary: string;
}

const PROBLEM = new Set(['failed', 'unknown']);

export function trayStatus(
  items: readonly QueueItem[],
  extra: {
    paused: boolean;
    needsToken: number;
    /** Of those, workspaces signed in with Slack whose sign-in ran out: they need a sign-in. */
    needsSignIn?: number;
  },
): TrayStatus {
  const active = items.filter((i) => isActiveState(i.state));
  const problems = items.filter((i) => PROBLEM.has(i.state)).length;
  let percent: number | null = null;
  if (active.length > 0) {
    const total = active.reduce((sum, i) => sum + i.size, 0);
    const sent = active.reduce((sum, i) => sum + Math.min(i.sent, i.size), 0);
    percent = total === 0 ? 0 : Math.floor((sent / total) * 100);
  }
  const attention = problems > 0 || extra.needsToken > 0;
  const describe = (withPercent: boolean) => {
    const parts: string[] = [];
    if (active.length > 0) {
      parts.push(
        extra.paused
          ? `${plural(active.length, 'upload', 'uploads')} paused`
          : `Uploading ${plural(active.length, 'file', 'files')}${withPercent ? `, ${percent}%` : ''}`,
      );
    }
    const signIns = Math.min(extra.needsSignIn ?? 0, extra.needsToken);
    if (signIns > 0) parts.push('a workspace needs you to sign in again');
    if (extra.needsToken > signIns) parts.push('a workspace needs a new token');
    if (problems > 0) parts.push(`${plural(problems, 'upload needs', 'uploads need')} attention`);
    const line =
      parts.length === 0 ? (extra.paused ? 'Uploads paused' : 'Ready to share') : parts.join('; ');
    return line.charAt(0).toUpperCase() + line.slice(1);
  };
  return {
    state: attention ? 'attention' : active.length > 0 ? 'uploading' : 'idle',
    percent,
    active: active.length,
    problems,
    summary: describe(true),
    menuSummary: describe(false),
  };
}
