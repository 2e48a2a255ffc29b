// Builds the renderer with vite for the browser harness. The build is cached in the temp
// folder under a hash of its sources, so several test files (and repeated runs) build once.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const RENDERER = join(ROOT, 'renderer');
// Outside renderer/, the bundle takes in the folder shared with the core and the model's types.
const PORTABLE = join(ROOT, 'main/portable');
const MODEL = join(ROOT, 'main/core/model.ts');
// The Slack app manifest the window opens Slack's "create app" page with.
const MANIFEST = join(ROOT, 'build/slack-app-manifest.json');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function sourceHash(slackClientId: string): Promise<string> {
  const hash = createHash('sha256');
  // A build with a default client ID is another build (electron.vite.config.ts defines it).
  hash.update(`client-id:${slackClientId}\0`);
  const files = [...(await filesUnder(RENDERER)), ...(await filesUnder(PORTABLE)), MODEL, MANIFEST];
  for (const file of files) {
    hash.update(relative(ROOT, file));
    hash.update('\0');
    hash.update(await readFile(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

export interface BuiltRenderer {
  dir: string;
  /** 'built' now, or 'cached' from an earlier build of the same sources. */
  how: 'built' | 'cached';
}

const PREFIX = 'trayshare-harness-renderer-';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Builds of older sources, untouched for a day, are not coming back: remove them. */
async function pruneOldBuilds(keep: string): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(PREFIX) || path === keep) continue;
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - info.mtimeMs > DAY_MS)
      await rm(path, { recursive: true, force: true });
  }
}

/**
 * `slackClientId`: the default Slack client ID a release build may carry (build/RELEASE.md,
 * TRAYSHARE_SLACK_CLIENT_ID), defined as electron.vite.config.ts defines it; '' for none.
 */
export async function buildRenderer(slackClientId = ''): Promise<BuiltRenderer> {
  const dir = join(tmpdir(), `${PREFIX}${await sourceHash(slackClientId)}`);
  if (existsSync(join(dir, 'index.html'))) return { dir, how: 'cached' };
  await pruneOldBuilds(dir);
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: RENDERER,
    base: './',
    logLevel: 'warn',
    define: { __TRAYSHARE_SLACK_CLIENT_ID__: JSON.stringify(slackClientId) },
    build: {
      outDir: staging,
      emptyOutDir: true,
      reportCompressedSize: false,
      // The capture overlay's page too (test/renderer/capture-overlay.test.ts).
      rollupOptions: {
        input: { index: join(RENDERER, 'index.html'), overlay: join(RENDERER, 'overlay.html') },
      },
    },
  });
  try {
    await rename(staging, dir);
  } catch (error) {
    // Another test file finished the same build first: theirs is identical.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, 'index.html'))) throw error;
  }
  return { dir, how: 'built' };
}
