// What the CLI writes where: results on stdout, progress and messages on stderr (so
// `--json` output stays parseable), and the hidden token prompt.

import { createInterface } from 'node:readline';
import { printable } from './printable';

// Sizes read the same in the terminal as in the window ("1.0 MB", never "1000.0 KB").
export { formatBytes } from '../portable/format-bytes';

export function say(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** One progress line on a terminal's stderr, rewritten in place; silent when stderr is not a TTY. */
export function createProgressLine(enabled = process.stderr.isTTY === true) {
  let last = 0;
  let shown = false;
  return {
    update(text: string, force = false): void {
      if (!enabled) return;
      const now = Date.now();
      if (!force && now - last < 100) return;
      last = now;
      const width = process.stderr.columns ?? 80;
      process.stderr.write(`\r\x1b[2K${printable(text).slice(0, width - 1)}`);
      shown = true;
    },
    clear(): void {
      if (enabled && shown) process.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}

/** Reads the token: all of standard input when it is piped, else a prompt that echoes nothing. */
export async function readSecret(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (data: string) => {
      for (const ch of data) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new Error('Cancelled.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** A yes-or-no question on the terminal: only y or yes is yes (Enter, Ctrl+C and Ctrl+D are no). */
export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = await new Promise<string>((resolve) => {
      // Without its own SIGINT listener readline would only pause, and the question never end.
      rl.once('SIGINT', () => {
        process.stderr.write('\n');
        resolve('');
      });
      rl.once('close', () => resolve(''));
      rl.question(question, resolve);
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
