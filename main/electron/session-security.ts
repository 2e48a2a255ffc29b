// What every window's session enforces: no permission is ever granted (the app needs none:
// no camera, notifications go through the main process, no geolocation…), and every page
// gets a strict Content-Security-Policy header. The renderer's own meta CSP says the same for
// file:// pages, which carry no HTTP headers.
import type { HeadersReceivedResponse, OnHeadersReceivedListenerDetails } from 'electron';
import type { RendererLocation } from './renderer-location';

/** The policy for the app's pages. Development adds what Vite's dev server needs (HMR). */
export function contentSecurityPolicy(location: RendererLocation): string {
  const directives: Record<string, string> = {
    'default-src': "'none'",
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'font-src': "'self'",
    'connect-src': "'self'",
    'base-uri': "'none'",
    'form-action': "'none'",
    'frame-ancestors': "'none'",
    'object-src': "'none'",
  };
  if (location.kind === 'dev-server') {
    const dev = new URL(location.url);
    // Vite injects CSS through <style> elements and talks to its HMR socket.
    directives['style-src'] = "'self' 'unsafe-inline'";
    directives['connect-src'] = `'self' ws://${dev.host}`;
  }
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

type HeadersListener = (
  details: OnHeadersReceivedListenerDetails,
  callback: (response: HeadersReceivedResponse) => void,
) => void;

/** The parts of Electron's Session this module configures. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  webRequest: { onHeadersReceived(listener: HeadersListener): void };
}

export function hardenSession(
  session: SessionLike,
  location: RendererLocation,
  log: (message: string) => void,
): void {
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    log(`Denied a permission request (${permission}).`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  const csp = contentSecurityPolicy(location);
  session.webRequest.onHeadersReceived((details, callback) => {
    // Only documents need the policy; API answers fetched through `net` are left as they are.
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') {
      callback({});
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [csp]; // eng-disable CSP_GLOBAL_CHECK (computed: see SECURITY.md)
    callback({ responseHeaders: headers });
  });
}
