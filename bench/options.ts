// Command-line options of `npm run bench`.
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { parseSize } from './stats';

const SCENARIOS = [
  'large',
  'small',
  'concurrent',
  'external',
  'multi-file',
  'link-share',
  'progress',
  'core',
  'startup',
  'app-path',
  'photo-details',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  quick: boolean;
  only: ScenarioName[];
  runs: number;
  /** One-file sizes for the "large" comparison (and the external one). */
  sizes: number[];
  smallCount: number;
  smallSize: number;
  concurrentSize: number;
  concurrentCount: number;
  /** Larger sizes skip the Slack SDK's filesUploadV2: it holds the whole file in memory. */
  externalMax: number;
  /** Where test files and the reference service's data go. */
  tmp: string;
  /** Also rewrite bench/REPORT.md and bench/plot.svg from this run. */
  report: boolean;
  /** Measure nothing: rewrite REPORT.md and the plots from bench/results/latest.json. */
  render: boolean;
  help: boolean;
}

export const USAGE = `Usage: npm run bench -- [options]

  --quick                 small sizes and 2 runs (about 2 minutes)
  --only <names>          comma-separated: ${SCENARIOS.join(', ')}
  --runs <n>              runs per client and case, alternated (default 5; quick 2)
  --sizes <list>          one-file sizes (default 256M,1G,2G,4G; quick 32M,128M)
  --small-count <n>       number of small files (default 500; quick 100)
  --small-size <size>     size of each small file (default 10K)
  --concurrent <size>     size of each of the files sent at once (default 256M; quick 64M)
  --external-max <size>   largest size the Slack SDK's filesUploadV2 gets (default 1G)
  --tmp <dir>             where test files are written (default: the system temp folder)
  --report                also rewrite bench/REPORT.md and bench/plot.svg
  --render                measure nothing: rewrite them from bench/results/latest.json
  --help                  this text`;

function positiveInt(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${what} must be a whole number above 0.`);
  return n;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      runs: { type: 'string' },
      sizes: { type: 'string' },
      'small-count': { type: 'string' },
      'small-size': { type: 'string' },
      concurrent: { type: 'string' },
      'external-max': { type: 'string' },
      tmp: { type: 'string' },
      report: { type: 'boolean', default: false },
      render: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const quick = values.quick === true;
  let only: ScenarioName[] = [...SCENARIOS];
  if (values.only !== undefined) {
    const names = values.only
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const name of names) {
      if (!(SCENARIOS as readonly string[]).includes(name)) {
        throw new Error(`Unknown comparison "${name}": choose from ${SCENARIOS.join(', ')}.`);
      }
    }
    if (names.length === 0) throw new Error('--only needs at least one name.');
    only = SCENARIOS.filter((s) => names.includes(s));
  }
  const sizes = (values.sizes ?? (quick ? '32M,128M' : '256M,1G,2G,4G'))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseSize);
  if (sizes.length === 0) throw new Error('--sizes needs at least one size.');
  return {
    quick,
    only,
    runs: values.runs !== undefined ? positiveInt(values.runs, '--runs') : quick ? 2 : 5,
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    smallCount:
      values['small-count'] !== undefined
        ? positiveInt(values['small-count'], '--small-count')
        : quick
          ? 100
          : 500,
    smallSize: parseSize(values['small-size'] ?? '10K'),
    concurrentSize: parseSize(values.concurrent ?? (quick ? '64M' : '256M')),
    concurrentCount: 3,
    externalMax: parseSize(values['external-max'] ?? '1G'),
    tmp: values.tmp ?? tmpdir(),
    report: values.report === true,
    render: values.render === true,
    help: values.help === true,
  };
}
