// What every logs test checks: no log file and no diagnostics text holds a secret.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Every file in the logs folder, by name. */
export async function readLogs(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of await readdir(dir)) out.set(name, await readFile(join(dir, name), 'utf8'));
  return out;
}

/** None of `secrets` appears in any of `texts` (each labelled, so a failure names the file). */
export function expectNoneOf(secrets: readonly string[], texts: Map<string, string>): void {
  expect(texts.size).toBeGreaterThan(0);
  for (const [where, text] of texts) {
    for (const secret of secrets) {
      expect(text.includes(secret), `${where} holds "${secret}"`).toBe(false);
    }
  }
}
