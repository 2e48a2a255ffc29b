// The renderer's only way out of its sandbox: window.trayshare, exposed by the preload in the
// app and by test/harness/browser-bridge.ts in the browser harness. Types only from the contract, so
// zod and the rest of main never reach the bundle.
import type { TrayshareBridge } from '../../preload/contract';

declare global {
  interface Window {
    trayshare: TrayshareBridge;
  }
}

export const api = (): TrayshareBridge => window.trayshare;

/**
 * A rejected call as a person should read it. Electron wraps handler errors as
 * "Error invoking remote method 'trayshare:share': Error: <message>": keep only the message.
 */
export function plainError(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const message = raw
    .replace(/^Error invoking remote method '[^']*':\s*/, '')
    .replace(/^(?:[A-Z][A-Za-z]*Error|Error):\s*/, '')
    .trim();
  return message === '' ? 'Something went wrong, and no reason was given.' : message;
}
