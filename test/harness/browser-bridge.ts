// window.trayshare for a plain browser: the same TrayshareBridge the Electron preload exposes,
// carried over HTTP to the harness (test/harness/server.ts), which calls the real core app
// service. Same origin as the page, so the renderer's CSP (`script-src 'self'`,
// `connect-src 'self'`) holds unchanged. Bundled by esbuild when the harness starts.
import type {
  EventName,
  MethodName,
  TrayshareBridge,
  TrayshareEvents,
} from '../../preload/contract';

/** Where the harness saves dropped files; set by esbuild's `define`. */
declare const __HARNESS_FILES_DIR__: string;
/**
 * The contract's method names, set by esbuild's `define` from the harness's own list: importing
 * them from preload/contract.ts would bring zod and every schema into this script, four times
 * the size of the app's own bundle, parsed and run before the page's first paint on every load.
 */
declare const __HARNESS_METHOD_NAMES__: readonly MethodName[];

// A File dropped in a browser has no path. Electron's preload asks webUtils.getPathForFile;
// here the bytes are uploaded to the harness, which saves them under a known folder, so the
// path can be given at once (pathForFile is synchronous) while the upload finishes. Every
// call waits for those uploads, so `share` never sees a half-written file.
const uploads = new Set<Promise<void>>();
let fileCounter = 0;

// Electron's webUtils gives no path for a File that is not on disk, such as a screenshot
// pasted from the clipboard; the page then sends its bytes (savePastedImage). While a paste
// event is being dispatched its files count as such, so the page takes that path here too.
let pasting = false;
window.addEventListener(
  'paste',
  () => {
    pasting = true;
    setTimeout(() => {
      pasting = false;
    });
  },
  { capture: true },
);

function pathForFile(file: File): string {
  if (pasting) return '';
  const id = `${Date.now().toString(36)}-${(fileCounter++).toString(36)}`;
  const name = file.name.replace(/[\\/]/g, '_') || 'unnamed';
  const upload = fetch(
    `/_harness/files?id=${encodeURIComponent(id)}&name=${encodeURIComponent(name)}`,
    {
      method: 'POST',
      body: file,
    },
  ).then((response) => {
    if (!response.ok) throw new Error(`the harness could not save ${name}`);
  });
  uploads.add(upload);
  void upload.finally(() => uploads.delete(upload)).catch(() => undefined);
  return `${__HARNESS_FILES_DIR__}/${id}/${name}`;
}

async function call(method: MethodName, args: unknown[]): Promise<unknown> {
  await Promise.all(uploads);
  const bytes = args.filter((a): a is Uint8Array<ArrayBuffer> => a instanceof Uint8Array);
  const response = await fetch(
    '/rpc',
    bytes.length === 0
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ method, args }),
        }
      : {
          // Bytes as the body, the call in a header (server.ts, rpc): no base64, as Electron's
          // IPC carries a Uint8Array as it is.
          method: 'POST',
          headers: {
            'content-type': 'application/octet-stream',
            'x-harness-call': encodeURIComponent(
              JSON.stringify({ method, args: withOffsets(args) }),
            ),
          },
          body: new Blob(bytes),
        },
  );
  if (response.headers.get('content-type') === 'application/octet-stream') {
    return withBytes(
      JSON.parse(decodeURIComponent(response.headers.get('x-harness-result') ?? '')),
      new Uint8Array(await response.arrayBuffer()),
    );
  }
  const answer = (await response.json()) as { result?: unknown; error?: string; name?: string };
  if (answer.error !== undefined) {
    // The shape Electron gives a rejected ipcRenderer.invoke, so the renderer sees the same text.
    throw new Error(
      `Error invoking remote method 'trayshare:${method}': ${answer.name ?? 'Error'}: ${answer.error}`,
    );
  }
  return answer.result;
}

/** The call's arguments with each byte array replaced by where it lies in the body. */
function withOffsets(args: unknown[]): unknown[] {
  let offset = 0;
  return args.map((a) => {
    if (!(a instanceof Uint8Array)) return a;
    offset += a.byteLength;
    return { $bytes: [offset - a.byteLength, a.byteLength] };
  });
}

/** An answer whose bytes came as the response's body (server.ts, sendResult). */
function withBytes(result: Record<string, unknown>, body: Uint8Array): unknown {
  return Object.fromEntries(
    Object.entries(result).map(([key, value]) => {
      const at = (value as { $bytes?: [number, number] } | null)?.$bytes;
      return at ? [key, body.slice(at[0], at[0] + at[1])] : [key, value];
    }),
  );
}

type Listener = (payload: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>();
let source: EventSource | null = null;

function events(): EventSource {
  source ??= new EventSource('/events');
  return source;
}

function subscribe(event: EventName): void {
  events().addEventListener(event, (message) => {
    const payload: unknown = JSON.parse((message as MessageEvent<string>).data);
    for (const listener of listeners.get(event) ?? []) listener(payload);
  });
}

const methods = {} as Record<MethodName, (...args: unknown[]) => Promise<unknown>>;
for (const name of __HARNESS_METHOD_NAMES__)
  methods[name] = (...args: unknown[]) => call(name, args);

const bridge = {
  ...methods,
  pathForFile,
  on<E extends EventName>(event: E, listener: (payload: TrayshareEvents[E]) => void): () => void {
    let set = listeners.get(event);
    if (!set) {
      set = new Set();
      listeners.set(event, set);
      subscribe(event);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  },
} as unknown as TrayshareBridge;

Object.defineProperty(window, 'trayshare', { value: Object.freeze(bridge), enumerable: true });

// Sign in with Slack opens the consent page in the person's browser; here the page is that
// browser, and a page cannot open a tab without a click. So the harness hands the address over
// (server.ts, 'harness-consent') and it shows as a link at the top of the page: one click opens
// the reference service's consent page in a new tab, where Allow finishes the sign-in. Drawn
// through the DOM and CSSOM, which the page's CSP allows; the app itself never sees it.
function showConsentLink(url: string): void {
  document.getElementById('harness-consent')?.remove();
  const bar = document.createElement('div');
  bar.id = 'harness-consent';
  bar.setAttribute('role', 'region');
  bar.setAttribute('aria-label', 'Harness');
  Object.assign(bar.style, {
    position: 'fixed',
    insetInline: '0',
    bottom: '0',
    zIndex: '1000',
    padding: '8px 12px',
    background: '#1d1c1d',
    color: '#ffffff',
    font: '13px system-ui, sans-serif',
  });
  const link = document.createElement('a');
  link.href = url;
  link.target = '_blank';
  link.rel = 'noopener';
  link.textContent = 'Open the sign-in page (reference service)';
  Object.assign(link.style, { color: '#ffffff', textDecoration: 'underline' });
  link.addEventListener('click', () => bar.remove());
  bar.append('Harness: ', link);
  document.body.append(bar);
}

events().addEventListener('harness-consent', (message) => {
  const { url } = JSON.parse((message as MessageEvent<string>).data) as { url: string };
  if (/^https?:\/\//.test(url)) showConsentLink(url);
});
