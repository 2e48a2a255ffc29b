import { fileURLToPath } from 'node:url';
import { describeAppAsar } from './app-asar-checks';

describeAppAsar(fileURLToPath(new URL('../..', import.meta.url)));
