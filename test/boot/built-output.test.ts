// What `npm run build` writes, read as Electron will load it: the sandboxed preload may only
// require what a sandbox offers, the main bundle may only import packages that ship with the
// app, and the page may only load files that exist and no inline script (the CSP forbids it).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = (...parts: string[]) => join(root, 'out', ...parts);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Modules Electron lets a sandboxed preload require. */
const SANDBOX_PRELOAD_MODULES = new Set(['electron', 'events', 'timers', 'url']);

function jsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(c|m)?js$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** Module specifiers a bundle loads: static and dynamic imports, and require calls. */
function specifiersIn(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bimport\s+(?:[\w*${}\s,]+\s+from\s+)?["']([^"']+)["']/g,
    /\bexport\s+[\w*${}\s,]+\s+from\s+["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.add(m[1]!);
  return [...found];
}

const isBuiltin = (s: string) => s.startsWith('node:') || builtinModules.includes(s);
const packageOf = (s: string) =>
  (s.startsWith('@') ? s.split('/').slice(0, 2) : s.split('/').slice(0, 1)).join('/');

describe('the built app', () => {
  it('finds specifiers the way bundles write them', () => {
    expect(
      specifiersIn(
        'import { a } from "electron";\nimport Conf from "conf";\nconst k = await import("keytar");\nrequire("events");\nimport "./side.js";',
      ).sort(),
    ).toEqual(['./side.js', 'conf', 'electron', 'events', 'keytar']);
  });

  it('has a preload that requires only what a sandboxed preload may', () => {
    const required = specifiersIn(readFileSync(out('preload', 'index.cjs'), 'utf8'));
    expect(required).toContain('electron');
    expect(required.filter((s) => !SANDBOX_PRELOAD_MODULES.has(s))).toEqual([]);
  });

  it('imports in the main process only Node built-ins, electron and its own dependencies', () => {
    const outside: string[] = [];
    for (const file of jsFilesUnder(out('main'))) {
      for (const s of specifiersIn(readFileSync(file, 'utf8'))) {
        if (s.startsWith('.')) {
          if (!existsSync(join(dirname(file), s))) outside.push(`${file}: ${s} (missing)`);
          continue;
        }
        if (isBuiltin(s) || s === 'electron') continue;
        if (!(packageOf(s) in pkg.dependencies)) outside.push(`${s} (not in dependencies)`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('has a page whose scripts and styles exist, with no inline script', () => {
    const html = readFileSync(out('renderer', 'index.html'), 'utf8');
    const assets = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      expect(asset, 'a relative asset').toMatch(/^\.\//);
      expect(existsSync(out('renderer', asset)), asset).toBe(true);
    }
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });
});
