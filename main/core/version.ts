// The one place the version is read: package.json's, bundled in at build time (esbuild and Vite
// keep only this field of the JSON), so the app, the CLI and the standalone CLI package all say
// the version they were built as, without reading package.json at run time.
import { version } from '../../package.json';

export const APP_VERSION: string = version;

/** What every request to a service says it is: `Trayshare/0.1.0 (linux; Node 22.20.0)`. */
export function userAgent(client: 'app' | 'cli' = 'app'): string {
  const product = client === 'cli' ? 'Trayshare-CLI' : 'Trayshare';
  return `${product}/${APP_VERSION} (${process.platform}; Node ${process.versions.node})`;
}
