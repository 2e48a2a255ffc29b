// Types for workflow-rules.mjs.
export function runsOnProblems(
  text: string,
  file: string,
  facts: { source: string; labels: Record<string, { status: string }> },
): string[];
export function electronSetupProblems(text: string, file: string): string[];
