// A bench client bundled like the app's main process (esbuild, ESM, npm packages left external),
// so the figures are the core's and not tsx's. Written inside the repository (out/ is ignored)
// so its npm packages resolve from the repository's node_modules.
import { join } from 'node:path';
import { build } from 'esbuild';

/** bench/clients/<name>.ts bundled to out/bench/<name>.mjs; returns the bundle's path. */
export async function bundleClient(repoRoot: string, name: string): Promise<string> {
  const outfile = join(repoRoot, 'out', 'bench', `${name}.mjs`);
  await build({
    entryPoints: [join(repoRoot, 'bench', 'clients', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
