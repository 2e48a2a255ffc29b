export const APP_ID: string;
export const DESKTOP_ID: string;
export const WINGET_ID: string;
export const WINGET_MANIFEST_VERSION: string;
interface ArtifactName {
  name: string;
  onDisk?: string;
}
export function artifactNames(version: string): {
  macX64: ArtifactName;
  macArm64: ArtifactName;
  win: ArtifactName;
  deb: ArtifactName;
};
export function nsisProductCode(appId?: string): string;
export function sha256File(path: string): Promise<string>;
export function metainfo(options: {
  repo: string;
  release?: { version: string; date: string };
}): string;
export function flatpakDesktopEntry(): string;
export function writeManifests(options: {
  version: string;
  artifacts: string;
  out: string;
  repo: string;
  date: string;
  macNotarised: boolean;
}): Promise<{ written: string[]; skipped: string[]; missing: string[] }>;
