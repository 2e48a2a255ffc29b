// Electronegativity over the Electron-facing sources: nothing left unexplained (SECURITY.md),
// and the scan does catch an unsafe window when there is one.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { report, scan } from './electronegativity';

describe('Electronegativity', () => {
  it('finds nothing unexplained in main/electron, preload and renderer', async () => {
    const result = await scan();
    expect(report(result)).toEqual([]);
    expect(result.scannedFiles).toContain('main/electron/windows.ts');
    expect(result.scannedFiles).toContain('preload/index.ts');
    expect(result.scannedFiles.some((f) => f.startsWith('renderer/'))).toBe(true);
    expect(result.scannedFiles.some((f) => f.endsWith('.test.ts'))).toBe(false);
  }, 120_000);

  it('reports an unsafe window, and a switched-off check that SECURITY.md does not explain', async () => {
    const root = await mkdtemp(join(tmpdir(), 'trayshare-eng-fixture-'));
    try {
      await mkdir(join(root, 'main/electron'), { recursive: true });
      await writeFile(
        join(root, 'package.json'),
        JSON.stringify({ devDependencies: { electron: '45.4.1' } }),
      );
      await writeFile(
        join(root, 'main/electron/bad.ts'),
        [
          "import { BrowserWindow, shell } from 'electron';",
          'export const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });',
          'export const open = (u: string) => shell.openExternal(u); // eng-disable OPEN_EXTERNAL_JS_CHECK',
          '',
        ].join('\n'),
      );
      const result = await scan(root);
      const ids = result.findings.map((f) => f.id);
      expect(ids).toContain('CONTEXT_ISOLATION_JS_CHECK');
      expect(ids).toContain('SANDBOX_JS_CHECK');
      // What our own sources have and this fixture lacks: navigation limits, a permission handler, a CSP.
      expect(ids).toContain('LIMIT_NAVIGATION_GLOBAL_CHECK');
      expect(ids).toContain('PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK');
      expect(ids).toContain('CSP_GLOBAL_CHECK');
      expect(ids).not.toContain('OPEN_EXTERNAL_JS_CHECK');
      expect(result.unexplained.map((u) => u.check)).toContain('OPEN_EXTERNAL_JS_CHECK');
      expect(report(result).length).toBeGreaterThan(0);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
