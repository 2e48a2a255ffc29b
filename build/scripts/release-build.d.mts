export type ReleaseOs = 'mac' | 'win' | 'linux';
export const TARGETS: Record<ReleaseOs, string[]>;
export function releasePlan(
  os: ReleaseOs,
  env: Record<string, string | undefined>,
): { env: Record<string, string | undefined>; notes: string[]; problem?: string };
export function builderArgs(
  os: ReleaseOs,
  env: Record<string, string | undefined>,
  publish: 'always' | 'never',
): string[];
