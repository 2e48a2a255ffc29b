// Types for electron-binary.mjs.
export interface DownloadFacts {
  version: string;
  platform: string;
  arch: string;
  env: Record<string, string | undefined>;
}
export function platformBinaryPath(platform: string): string;
export function downloadUrl(facts: DownloadFacts): string;
export function firstErrorLine(output: string): string;
export function downloadFailureMessage(
  facts: DownloadFacts & { output: string; retry?: string },
): string;
export function electronPackageDir(projectDir?: string): string;
export function ensureElectronBinary(options?: {
  env?: Record<string, string | undefined>;
  platform?: string;
  arch?: string;
  say?: (message: string) => void;
  packageDir?: string;
  retry?: string;
}): Promise<{ path: string; problem?: undefined } | { path?: undefined; problem: string }>;
