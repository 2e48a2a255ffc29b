// Types for runner-labels.mjs.
import type { RunnerFacts } from './lint-workflows.mjs';

export function labelsFromReadme(markdown: string): RunnerFacts['labels'];
