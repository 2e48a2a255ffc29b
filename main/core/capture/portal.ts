// Linux: the desktop's own screenshot UI through xdg-desktop-portal's Screenshot interface, on
// Wayland and X11 alike (GNOME, KDE and wlroots portals implement it). The call returns a
// Request object's path at once; the answer comes later as that object's Response signal:
// 0 with results {uri}, 1 when the person cancelled, 2 when it ended another way.
// Interface: https://flatpak.github.io/xdg-desktop-portal/docs/doc-org.freedesktop.portal.Screenshot.html
// Request:   https://flatpak.github.io/xdg-desktop-portal/docs/doc-org.freedesktop.portal.Request.html
//
// Any program on the session bus may send a signal that looks like that Response: the bus does
// not stop one program from emitting on another's object path. What it cannot forge is the
// sender, which the bus itself writes into each message (the SENDER header field,
// https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol-header-fields). So an
// answer counts only when it comes from the unique name that owns the portal's well-known name,
// as the bus reports it (GetNameOwner). GLib's D-Bus client had to learn the same check
// (CVE-2024-34397: "other users of the same computer can send spoofed D-Bus signals",
// https://discourse.gnome.org/t/security-fixes-for-signal-handling-in-gdbus-in-glib/20882).
// What the answer names is checked again as a file before it is read (portal-file.ts).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import dbus from 'dbus-next';
import type { CaptureOutcome } from './capture-outcome';

const PORTAL = 'org.freedesktop.portal.Desktop';
const PORTAL_PATH = '/org/freedesktop/portal/desktop';
const REQUEST_IFACE = 'org.freedesktop.portal.Request';

/** What the person is told when no portal takes the call, with what to install. */
export const NO_PORTAL =
  "No screenshot portal answered on this desktop. Install xdg-desktop-portal and your desktop's backend (xdg-desktop-portal-gnome, xdg-desktop-portal-kde or xdg-desktop-portal-wlr), then log out and in again.";

/**
 * dbus-next opens `unix:abstract=` addresses through the optional native usocket module, which
 * is not installed (no native build); Node opens abstract sockets itself with a leading NUL
 * (dbusjs/node-dbus-next#127). `socket=` is the parameter dbus-next hands to net as it is.
 */
export function usableBusAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.split(';').map((one) => {
    const abstract = /^unix:(?:.*,)?abstract=([^,]+)/.exec(one)?.[1];
    return abstract ? `unix:socket=\u0000${decodeURIComponent(abstract)}` : one;
  })[0];
}

/** The Request path the portal will use (Request documentation: sender's unique name, ':' dropped, '.' → '_'). */
function requestPath(uniqueName: string, token: string): string {
  return `${PORTAL_PATH}/request/${uniqueName.replace(/^:/, '').replace(/\./g, '_')}/${token}`;
}

/** The end of every message about an answer Trayshare could not use. */
const TRY_AGAIN =
  "so nothing was captured. Try again; if it happens again, update your desktop's screenshot portal (xdg-desktop-portal and its backend).";

/** Long enough to recognise what the portal sent, short enough for a notification. */
function shown(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * The path of a `file://` URI on this computer (no host, or localhost, which the URL parser
 * already empties), or null for anything else. fileURLToPath throws on another host or an
 * encoded '/', so it runs here, where a throw becomes a refusal.
 */
function localFile(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'file:' || url.hostname !== '') return null;
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

/**
 * The Response signal's meaning for Trayshare: `(u response, a{sv} results)` as the Request
 * documentation gives it; results.uri is a string (Screenshot documentation). Anything else
 * is an answer that ends the capture with words, never one that leaves it waiting.
 */
function portalOutcome(signature: string, body: unknown[]): CaptureOutcome {
  const [response, results] = body;
  if (signature !== 'ua{sv}' || typeof response !== 'number') {
    return {
      kind: 'failed',
      message: `The screenshot portal answered in a form Trayshare does not know (${shown(signature || 'nothing')}), ${TRY_AGAIN}`,
    };
  }
  if (response === 1) return { kind: 'cancelled' };
  if (response !== 0) {
    return { kind: 'failed', message: 'The screenshot portal ended the capture without an image.' };
  }
  const uri = (results as Record<string, unknown>).uri;
  if (!(uri instanceof dbus.Variant) || uri.signature !== 's' || typeof uri.value !== 'string') {
    return {
      kind: 'failed',
      message: `The screenshot portal gave no file for the capture, ${TRY_AGAIN}`,
    };
  }
  const path = localFile(uri.value);
  if (path === null) {
    return {
      kind: 'failed',
      message: `The screenshot portal gave "${shown(uri.value)}", which is not a file on this computer, ${TRY_AGAIN}`,
    };
  }
  return { kind: 'file', path };
}

function describeCallError(error: unknown): string {
  const type = (error as { type?: string }).type ?? '';
  // No portal on the bus, or a portal without a Screenshot backend.
  if (/ServiceUnknown|UnknownMethod|UnknownInterface|UnknownObject|NameHasNoOwner/.test(type)) {
    return NO_PORTAL;
  }
  const text = (error as { text?: string }).text ?? (error as Error).message ?? String(error);
  return `The screenshot portal refused the capture: ${text}`;
}

export interface PortalOptions {
  /** The session bus (default: DBUS_SESSION_BUS_ADDRESS). */
  busAddress?: string;
  /** True: the desktop's UI to pick an area or window; false: the whole screen at once. */
  interactive: boolean;
  /**
   * Start the desktop's UI on windows (--window): the interface's version 3 `target` option,
   * sent only where the portal says it offers that target (AvailableTargets).
   */
  window?: boolean;
  /** How long the person may take (default 10 minutes); then it counts as cancelled. */
  timeoutMs?: number;
}

/** Asks the portal for a screenshot and waits for the person's answer. Never throws. */
export async function portalScreenshot(options: PortalOptions): Promise<CaptureOutcome> {
  const address = usableBusAddress(options.busAddress ?? process.env.DBUS_SESSION_BUS_ADDRESS);
  if (!address) return { kind: 'failed', message: NO_PORTAL };
  let bus: dbus.MessageBus;
  try {
    bus = dbus.sessionBus({ busAddress: address });
  } catch (error) {
    return { kind: 'failed', message: `${NO_PORTAL} (${(error as Error).message})` };
  }
  const connectionLost = new Promise<CaptureOutcome>((resolve) =>
    bus.on('error', (error: unknown) =>
      resolve({ kind: 'failed', message: `${NO_PORTAL} (${String(error)})` }),
    ),
  );
  try {
    return await Promise.race([ask(bus, options), connectionLost]);
  } finally {
    bus.disconnect();
  }
}

/** AvailableTargets' bit for "a window selected by the user" (version 3 of the interface). */
const WINDOW_TARGET = 2;

/** Whether the portal (version 3 or later) lists this target; false when it cannot say. */
async function offersTarget(bus: dbus.MessageBus, target: number): Promise<boolean> {
  const get = async (name: string) => {
    const reply = await bus.call(
      new dbus.Message({
        destination: PORTAL,
        path: PORTAL_PATH,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: ['org.freedesktop.portal.Screenshot', name],
      }),
    );
    const value = (reply?.body[0] as { value?: unknown } | undefined)?.value;
    return typeof value === 'number' ? value : 0;
  };
  try {
    return (await get('version')) >= 3 && ((await get('AvailableTargets')) & target) !== 0;
  } catch {
    return false;
  }
}

/** The unique name that owns the portal's well-known name now, as the bus says; null: nobody. */
async function portalOwner(bus: dbus.MessageBus): Promise<string | null> {
  try {
    const reply = await bus.call(
      new dbus.Message({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'GetNameOwner',
        signature: 's',
        body: [PORTAL],
      }),
    );
    const owner = reply?.body[0];
    return typeof owner === 'string' && owner !== '' ? owner : null;
  } catch {
    return null;
  }
}

async function ask(bus: dbus.MessageBus, options: PortalOptions): Promise<CaptureOutcome> {
  // Subscribed before the call, so an answer that comes before the call returns is not missed.
  await bus.call(
    new dbus.Message({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'AddMatch',
      signature: 's',
      body: [`type='signal',interface='${REQUEST_IFACE}',member='Response'`],
    }),
  );
  const token = `trayshare_${randomBytes(8).toString('hex')}`;
  const unique = (bus as unknown as { name: string | null }).name ?? '';
  const handles = new Set([requestPath(unique, token)]);
  // Answers on our Request paths wait here until the portal's owner is known: it is asked
  // after the call, because the call is what starts a portal that D-Bus activates on demand.
  const held: dbus.Message[] = [];
  let owner: string | null = null;
  let settle: (outcome: CaptureOutcome) => void = () => undefined;
  const answered = new Promise<CaptureOutcome>((resolve) => {
    settle = resolve;
  });
  const consider = (msg: dbus.Message) => {
    if (!handles.has(msg.path)) return;
    // Another program's signal on our path: not the portal's answer, so it is not one at all.
    if (msg.sender !== owner) return;
    settle(portalOutcome(msg.signature ?? '', Array.isArray(msg.body) ? msg.body : []));
  };
  bus.on('message', (msg: dbus.Message) => {
    if (msg.interface !== REQUEST_IFACE || msg.member !== 'Response') return;
    if (owner === null) held.push(msg);
    else consider(msg);
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CaptureOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'cancelled' }), options.timeoutMs ?? 600_000);
  });
  try {
    const reply = await bus.call(
      new dbus.Message({
        destination: PORTAL,
        path: PORTAL_PATH,
        interface: 'org.freedesktop.portal.Screenshot',
        member: 'Screenshot',
        signature: 'sa{sv}',
        body: [
          '',
          {
            handle_token: new dbus.Variant('s', token),
            interactive: new dbus.Variant('b', options.interactive),
            modal: new dbus.Variant('b', true),
            ...(options.window && (await offersTarget(bus, WINDOW_TARGET))
              ? { target: new dbus.Variant('u', WINDOW_TARGET) }
              : {}),
          },
        ],
      }),
    );
    // Older portals chose the path themselves: the one returned is the one that answers.
    const handle = reply?.body[0];
    if (typeof handle === 'string') handles.add(handle);
  } catch (error) {
    clearTimeout(timer);
    return { kind: 'failed', message: describeCallError(error) };
  }
  owner = await portalOwner(bus);
  if (owner === null) {
    clearTimeout(timer);
    return { kind: 'failed', message: NO_PORTAL };
  }
  for (const msg of held.splice(0)) consider(msg);
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
