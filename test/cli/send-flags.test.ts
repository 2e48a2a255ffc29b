// `send`'s options are declared once (main/cli/send-flags.ts). These checks name the option a
// change left out of the places that do not follow from that declaration by themselves:
// an option added to commander beside the list (which the early scan of the raw arguments
// would not know takes a value, and would read that value as a file), and the manual.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCapture } from '../../main/cli/commands/capture-command';
import { registerSend } from '../../main/cli/commands/send';
import { SEND_FLAGS, VALUE_FLAGS } from '../../main/cli/send-flags';

const root = join(import.meta.dirname, '..', '..');

function command(name: string): Command {
  const program = new Command();
  registerSend(program);
  registerCapture(program, 'linux');
  const found = program.commands.find((c) => c.name() === name);
  if (!found) throw new Error(`no ${name} command`);
  return found;
}

describe("send's options, declared once", () => {
  it('the early scan skips the value of exactly the options commander gives a value', () => {
    const send = command('send');
    const takesValue = send.options.filter((o) => o.required || o.optional).map((o) => o.long);
    expect([...VALUE_FLAGS].sort()).toEqual(takesValue.sort());
    expect(send.options.map((o) => o.flags)).toEqual(SEND_FLAGS.map((f) => f.flag));
  });

  it("capture's shared options are send's, with the same value or none", () => {
    const capture = command('capture');
    for (const option of capture.options) {
      if (option.long === '--window' || option.long === '--screen') continue;
      expect(
        SEND_FLAGS.map((f) => f.flag),
        `capture's ${option.long}`,
      ).toContain(option.flags);
    }
  });

  it('docs/cli.md names every option of send', () => {
    const manual = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
    const missing = SEND_FLAGS.map((f) => f.flag.split(' ')[0]!).filter(
      (long) => !manual.includes(long),
    );
    expect(missing, 'options of send that docs/cli.md never names').toEqual([]);
  });
});
