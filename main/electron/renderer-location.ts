// Where the renderer page lives, and which frames count as "our own renderer" for IPC.
// Production: file:// of out/renderer/index.html. Development: the electron-vite dev server,
// and only when the app is not packaged (a packaged app never loads a URL from the environment).
import { pathToFileURL } from 'node:url';

export type RendererLocation =
  | { kind: 'file'; indexPath: string }
  | { kind: 'dev-server'; url: string };

export function rendererLocation(opts: {
  isPackaged: boolean;
  devServerUrl: string | undefined;
  indexPath: string;
}): RendererLocation {
  if (!opts.isPackaged && opts.devServerUrl) {
    const url = new URL(opts.devServerUrl);
    // The dev server runs on this machine; anything else is not the dev server.
    if (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
      return { kind: 'dev-server', url: url.href };
    }
  }
  return { kind: 'file', indexPath: opts.indexPath };
}

/** The page's URL without fragment or query. */
function page(url: URL): string {
  return `${url.origin === 'null' ? `${url.protocol}//` : url.origin}${url.pathname}`;
}

/** True when `frameUrl` is our renderer page (any view: the fragment picks the view). */
export function isRendererUrl(location: RendererLocation, frameUrl: string | undefined): boolean {
  if (!frameUrl) return false;
  let url: URL;
  try {
    url = new URL(frameUrl);
  } catch {
    return false;
  }
  if (location.kind === 'file') {
    return url.protocol === 'file:' && page(url) === page(pathToFileURL(location.indexPath));
  }
  return url.origin === new URL(location.url).origin;
}

/** A sender's origin for logs: never the full URL (it may carry data), never arguments. */
export function describeSender(frameUrl: string | undefined): string {
  if (!frameUrl) return 'no frame';
  try {
    const url = new URL(frameUrl);
    return url.origin === 'null' ? `${url.protocol}//…` : url.origin;
  } catch {
    return 'an unparsable URL';
  }
}
