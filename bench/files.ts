// Test files: real bytes on disk (not sparse holes), so every client really reads what it
// sends. Each MiB is a random block with its index stamped in, written with plain writes:
// fast to create, never all zeros, and no two MiB alike.
import { randomBytes } from 'node:crypto';
import { mkdir, open, statfs } from 'node:fs/promises';
import { join } from 'node:path';

const BLOCK = 1024 * 1024;

export async function writeTestFile(path: string, size: number): Promise<void> {
  const block = randomBytes(BLOCK);
  const handle = await open(path, 'w');
  try {
    let written = 0;
    let index = 0;
    while (written < size) {
      block.writeUInt32LE(index++, 0);
      const length = Math.min(BLOCK, size - written);
      await handle.write(block, 0, length, written);
      written += length;
    }
  } finally {
    await handle.close();
  }
}

/** `count` files of `size` bytes named prefix-0001.bin… in `dir`. */
export async function writeTestFiles(
  dir: string,
  prefix: string,
  count: number,
  size: number,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  const digits = String(count).length;
  for (let i = 1; i <= count; i++) {
    const path = join(dir, `${prefix}-${String(i).padStart(digits, '0')}.bin`);
    await writeTestFile(path, size);
    paths.push(path);
  }
  return paths;
}

export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}
