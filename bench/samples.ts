// What one bench run collects, below everything that collects or reports it: the samples of
// each case in series, and the goals the figures are checked against (results.ts sums them up;
// the scenarios fill them in).
import type { ToolId } from './clients';
import type { ScenarioName } from './options';
import type { TargetName } from './targets';

export interface Sample {
  wallMs: number;
  /** Peak RSS of the process (the largest one when several ran together), KiB. */
  peakRssKiB: number;
  /** Several processes at once: their peaks added up, KiB. */
  sumRssKiB?: number;
  /** User + system CPU time of the client (all its processes), ms. */
  cpuMs?: number;
  /** The machine's 1-minute load average just before this run. */
  loadBefore?: number;
  /** Set when the run does not count (a failed upload, missing bytes, a crash). */
  error?: string;
}

export interface SeriesKey {
  scenario: ScenarioName;
  /** "1 GiB", "500 × 10 KiB", "3 × 256 MiB at once". */
  caseLabel: string;
  tool: ToolId;
  target: TargetName;
}

export interface Series extends SeriesKey {
  /** Bytes per file. */
  fileBytes: number;
  /** Files moved per run (all processes together). */
  files: number;
  /** Processes started at once per run. */
  processes: number;
  /** The 1-minute load average just before the case started, and the machine's cores. */
  loadBefore?: number;
  cpus?: number;
  samples: Sample[];
}

export interface Goal {
  id: string;
  target: string;
  measured: string;
  /** undefined: not measured in this run (say why in `measured`). */
  pass: boolean | undefined;
}
