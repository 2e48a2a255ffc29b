// Types for electron-preflight.mjs.
export interface PreflightEnv {
  platform: string;
  uid: number | undefined;
  electronPath: string;
  readText(path: string): string | null;
  statMode(path: string): { mode: number; uid: number } | null;
}
export function linuxStartProblem(env: PreflightEnv): string | null;
export function startProblemHere(electronPath: string): string | null;
