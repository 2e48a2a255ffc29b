// Child process for the lock race test: waits for the start signal, tries once to take the
// queue lock, and if it got it, holds it until told and checks nobody else wrote over it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireQueueLock, LOCK_FILE, QueueLockedError } from '../../main/core/queue/queue-lock';

const [dir, go, end] = process.argv.slice(2) as [string, string, string];
process.stdout.write('ready\n');
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 5));
try {
  const lock = await acquireQueueLock(dir);
  const mine = readFileSync(join(dir, LOCK_FILE), 'utf8');
  // Hold until every other racer has given up (the test then creates `end`).
  while (!existsSync(end)) await new Promise((r) => setTimeout(r, 20));
  const still = readFileSync(join(dir, LOCK_FILE), 'utf8') === mine;
  await lock.release();
  process.stdout.write(`${still ? 'held' : 'lost'}\n`);
} catch (error) {
  process.stdout.write(error instanceof QueueLockedError ? 'locked\n' : `error ${error}\n`);
}
