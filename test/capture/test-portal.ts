// A stand-in xdg-desktop-portal for the Screenshot interface, on a private D-Bus session bus of
// its own (a dbus-daemon started here, as dbus-run-session starts one), so the app's real
// portal client talks real D-Bus to it. It behaves as the portal documents:
// https://flatpak.github.io/xdg-desktop-portal/docs/doc-org.freedesktop.portal.Screenshot.html
// Screenshot(s parent_window, a{sv} options) returns the Request object path built from the
// caller's unique name and options.handle_token, then emits that object's
// org.freedesktop.portal.Request.Response(u response, a{sv} results): 0 with {uri}, 1 cancelled
// (https://flatpak.github.io/xdg-desktop-portal/docs/doc-org.freedesktop.portal.Request.html).
// Its file is written in the shared temp folder, as some portals do, so the test can check that
// Trayshare moves it out. It can also misbehave on purpose: answer with any URI or any signal
// body, and let a second client on the same bus (not the portal's owner) send a forged Response
// on the request's path first.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import dbus from 'dbus-next';
import { usableBusAddress } from '../../main/core/capture/portal';

/** A Response another client on the bus sends on the request's path before the portal answers. */
interface Forged {
  uri: string;
}

type PortalAnswer = (
  | { kind: 'file'; png: Uint8Array; delayMs?: number }
  | { kind: 'cancelled' }
  | { kind: 'error'; name: string; text: string }
  /** Success (0) naming this URI, whatever it is. */
  | { kind: 'uri'; uri: string }
  /** The Response signal with this signature and body, as a misbehaving portal might send it. */
  | { kind: 'raw'; signature: string; body: unknown[] }
) & { forgedFirst?: Forged };

export interface TestPortal {
  /** The private bus's address, for the client (DBUS_SESSION_BUS_ADDRESS). */
  address: string;
  /** The next requests' answer. */
  answer(next: PortalAnswer): void;
  /** The options of each Screenshot call, as received. */
  calls: {
    parentWindow: string;
    interactive: unknown;
    modal: unknown;
    handleToken: unknown;
    target: unknown;
  }[];
  /** The interface's version and, from version 3, its AvailableTargets (1 screen, 2 window, 4 area). */
  setVersion(version: number, availableTargets?: number): void;
  /** The files it wrote (the test checks they were moved out of the shared temp folder). */
  written: string[];
  /** When the last Response signal was sent (performance.now()). */
  lastAnswerAt: number;
  /** How many forged Responses the second client has sent (each before the portal's answer). */
  forgedSent: number;
  /** Gives up the portal's name: the bus then has no portal (as on a desktop without one). */
  releaseName(): Promise<void>;
  close(): Promise<void>;
}

function startBus(): Promise<{ daemon: ChildProcess; address: string }> {
  return new Promise((resolve, reject) => {
    const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    daemon.on('error', reject);
    daemon.on('exit', (code) =>
      reject(new Error(`dbus-daemon ended (${code}) before it listened`)),
    );
    daemon.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ daemon, address: line.trim() });
    });
  });
}

const unwrap = (v: unknown) => (v instanceof dbus.Variant ? v.value : v);

/**
 * `sessionBus`: on the session bus this test runs in (with-keyring.mjs starts one with
 * dbus-run-session, beside the keyring), for a process that needs both, such as the CLI; only
 * one test at a time may own the portal's name there. Otherwise on a bus of its own.
 */
export async function startTestPortal(options: { sessionBus?: boolean } = {}): Promise<TestPortal> {
  const session = options.sessionBus ? process.env.DBUS_SESSION_BUS_ADDRESS : undefined;
  const { daemon, address } = session ? { daemon: null, address: session } : await startBus();
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-test-portal-'));
  const bus = dbus.sessionBus({ busAddress: usableBusAddress(address) ?? address });
  const owned = await bus.requestName('org.freedesktop.portal.Desktop', dbus.NameFlag.DO_NOT_QUEUE);
  if (owned !== dbus.RequestNameReply.PRIMARY_OWNER) {
    throw new Error('Another test holds org.freedesktop.portal.Desktop on this bus.');
  }
  // Another program on the same bus, which does not own the portal's name.
  let forger: dbus.MessageBus | undefined;
  let next: PortalAnswer = { kind: 'cancelled' };
  let version = 2;
  let targets: number | undefined;
  let count = 0;
  const portal: TestPortal = {
    address,
    answer: (answer) => {
      next = answer;
    },
    calls: [],
    written: [],
    lastAnswerAt: 0,
    forgedSent: 0,
    setVersion: (v, t) => {
      version = v;
      targets = t;
    },
    releaseName: async () => {
      await bus.releaseName('org.freedesktop.portal.Desktop');
    },
    async close() {
      forger?.disconnect();
      bus.disconnect();
      daemon?.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };

  // dbus-next's types say a string, its code (lib/message-type.js) takes the call.
  const asCall = (msg: dbus.Message) => msg as unknown as string;
  bus.addMethodHandler((msg: dbus.Message) => {
    if (msg.interface === 'org.freedesktop.DBus.Properties' && msg.member === 'Get') {
      const [, name] = msg.body as [string, string];
      const value =
        name === 'version' ? version : name === 'AvailableTargets' ? targets : undefined;
      bus.send(
        value === undefined
          ? dbus.Message.newError(asCall(msg), 'org.freedesktop.DBus.Error.UnknownProperty')
          : dbus.Message.newMethodReturn(msg, 'v', [new dbus.Variant('u', value)]),
      );
      return true;
    }
    if (msg.interface !== 'org.freedesktop.portal.Screenshot' || msg.member !== 'Screenshot') {
      return false;
    }
    const [parentWindow, options] = msg.body as [string, Record<string, unknown>];
    const token = unwrap(options.handle_token);
    portal.calls.push({
      parentWindow,
      interactive: unwrap(options.interactive),
      modal: unwrap(options.modal),
      handleToken: token,
      target: unwrap(options.target),
    });
    const answer = next;
    if (answer.kind === 'error') {
      bus.send(dbus.Message.newError(asCall(msg), answer.name, answer.text));
      return true;
    }
    const sender = msg.sender.replace(/^:/, '').replace(/\./g, '_');
    const handle = `/org/freedesktop/portal/desktop/request/${sender}/${String(token)}`;
    bus.send(dbus.Message.newMethodReturn(msg, 'o', [handle]));
    void respond(answer, handle);
    return true;
  });

  async function forge(forged: Forged, handle: string): Promise<void> {
    forger ??= dbus.sessionBus({ busAddress: usableBusAddress(address) ?? address });
    forger.send(
      dbus.Message.newSignal(handle, 'org.freedesktop.portal.Request', 'Response', 'ua{sv}', [
        0,
        { uri: new dbus.Variant('s', forged.uri) },
      ]),
    );
    // A round trip to the bus after the signal: the bus handles one client's messages in
    // order, so the forged signal is on its way to the app before the portal's answer is sent.
    await forger.call(
      new dbus.Message({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'GetId',
      }),
    );
    portal.forgedSent++;
  }

  async function respond(answer: PortalAnswer, handle: string): Promise<void> {
    if (answer.forgedFirst) await forge(answer.forgedFirst, handle);
    let signature = 'ua{sv}';
    let body: unknown[] = [1, {}];
    if (answer.kind === 'file') {
      const file = join(dir, `Screenshot-${++count}.png`);
      await writeFile(file, answer.png);
      portal.written.push(file);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      body = [0, { uri: new dbus.Variant('s', pathToFileURL(file).href) }];
    } else if (answer.kind === 'uri') {
      body = [0, { uri: new dbus.Variant('s', answer.uri) }];
    } else if (answer.kind === 'raw') {
      ({ signature, body } = answer);
    }
    portal.lastAnswerAt = performance.now();
    bus.send(
      dbus.Message.newSignal(handle, 'org.freedesktop.portal.Request', 'Response', signature, body),
    );
  }

  return portal;
}
