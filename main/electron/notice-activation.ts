// What acting on a notification does, written into the notification itself on Windows, so a
// click still works once the Notification object is gone: from Action Center hours later, or
// after a restart (Notification.handleActivation,
// https://www.electronjs.org/docs/latest/api/notification#notificationhandleactivationcallback-windows).
// Electron's own toast gives a body click no arguments (electron/electron,
// shell/browser/notifications/win/windows_toast_notification.cc), so Trayshare writes the toast
// (`toastXml`) with a `launch` string of its own, which Windows hands back as
// ActivationArguments.arguments.
import type { View } from '../../preload/contract';

/** Copy these links (one a line), or open the window on a view. */
export type NoticeAction = { copy: string } | { open: View };

const VIEWS: readonly View[] = ['drop', 'share', 'queue', 'history', 'presets', 'settings'];
const MAX_COPY = 10_000;

export function encodeActivation(id: string, action: NoticeAction | undefined): string {
  const params = new URLSearchParams({ trayshare: id });
  if (action && 'copy' in action) params.set('copy', action.copy);
  else if (action) params.set('open', action.open);
  return params.toString();
}

/**
 * The notice and action a launch string names; null for anything Trayshare did not write.
 * Read as untrusted: only known views, and only web links to copy (a service on loopback
 * gives http ones).
 */
export function decodeActivation(
  launch: string,
): { id: string; action: NoticeAction | undefined } | null {
  const params = new URLSearchParams(launch);
  const id = params.get('trayshare');
  if (!id) return null;
  const open = params.get('open');
  const copy = params.get('copy');
  if (open !== null) {
    return (VIEWS as readonly string[]).includes(open)
      ? { id, action: { open: open as View } }
      : null;
  }
  if (copy !== null) {
    const links = copy.split('\n');
    const safe = copy.length <= MAX_COPY && links.every(isWebLink);
    return safe ? { id, action: { copy } } : null;
  }
  return { id, action: undefined };
}

function isWebLink(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

// XML 1.0 allows tab, newline and carriage return among the control characters, and no other.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A toast like Electron's own (title, body, ToastGeneric) that carries `launch`. Schema:
 * https://learn.microsoft.com/en-us/windows/apps/design/shell/tiles-and-notifications/toast-schema
 */
export function windowsToastXml(title: string, body: string, launch: string): string {
  return [
    `<toast launch="${xmlText(launch)}" activationType="foreground">`,
    '<visual><binding template="ToastGeneric">',
    `<text>${xmlText(title)}</text>`,
    `<text>${xmlText(body)}</text>`,
    '</binding></visual>',
    '</toast>',
  ].join('');
}
