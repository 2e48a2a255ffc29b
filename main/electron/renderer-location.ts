// Where the renderer page lives, and which frames count as "our own renderer" for IPC.
// Production: file:// of out/renderer/index.html. Development: the electron-vite dev server,
// and only when the app is not packaged (a packaged app never loads a URL from the environment).
import { win32 } from 'node:path';

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

/**
 * The file path a file: URL points at, spelled so two spellings of one file compare equal.
 * Windows: Chromium writes the drive letter upper-case (`file:///C:/…`) whatever the path it
 * was given, and NTFS ignores case, so there the comparison ignores case too.
 */
function comparablePath(path: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? win32.normalize(path).toLowerCase() : path;
}

function filePathOf(url: URL, platform: NodeJS.Platform): string | null {
  if (url.protocol !== 'file:') return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (platform !== 'win32') return url.host ? null : path;
  // file://server/share/… is a UNC path; file:///C:/… a drive path.
  if (url.host) return `\\\\${url.host}${path.replace(/\//g, '\\')}`;
  return path.replace(/^\/(?=[A-Za-z]:)/, '').replace(/\//g, '\\');
}

/** True when `frameUrl` is our renderer page (any view: the fragment picks the view). */
export function isRendererUrl(
  location: RendererLocation,
  frameUrl: string | undefined,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (!frameUrl) return false;
  let url: URL;
  try {
    url = new URL(frameUrl);
  } catch {
    return false;
  }
  if (location.kind === 'file') {
    const path = filePathOf(url, platform);
    return (
      path !== null &&
      comparablePath(path, platform) === comparablePath(location.indexPath, platform)
    );
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
