// Exits 0 when this Node.js fits package.json's engines (for .ci/run, before anything is installed).
import { readFileSync } from 'node:fs';
import { satisfiesEngines } from './setup-checks.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
process.exit(satisfiesEngines(process.versions.node, pkg.engines.node) ? 0 : 1);
