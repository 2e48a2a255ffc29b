import { describe, expect, it } from 'vitest';
import { createBodyWriter } from './transport';

const MiB = 1024 * 1024;

describe('a request body is written as whole chunks to a fast socket and as slices to a slow one', () => {
  it('cuts a chunk into views of itself and reports the whole chunk with its last slice', () => {
    let clock = 0;
    const reports: [number, Uint8Array | undefined][] = [];
    const writer = createBodyWriter({ onBodyWritten: (n, c) => reports.push([n, c]) }, () => clock);
    const chunk = new Uint8Array(MiB);
    const slices = writer.slices(chunk);
    expect(slices.length).toBeGreaterThan(1);
    expect(slices.every((s) => s.buffer === chunk.buffer)).toBe(true);
    expect(slices.reduce((n, s) => n + s.length, 0)).toBe(MiB);
    slices.forEach((s, i) => {
      clock += 1;
      writer.written(s.length, i === slices.length - 1 ? chunk : undefined);
    });
    expect(reports.map(([n]) => n).reduce((a, b) => a + b, 0)).toBe(MiB);
    expect(reports.at(-1)?.[1]).toBe(chunk);
    expect(reports.slice(0, -1).every(([, c]) => c === undefined)).toBe(true);
  });

  it('writes whole chunks when the socket takes them fast, small slices when it is slow', () => {
    let clock = 0;
    const writer = createBodyWriter({}, () => clock);
    const chunk = new Uint8Array(MiB);
    // Fast: each slice taken within a millisecond.
    for (let i = 0; i < 10; i++) {
      for (const s of writer.slices(chunk)) {
        clock += 0.1;
        writer.written(s.length, undefined);
      }
    }
    expect(writer.slices(chunk)).toHaveLength(1);
    // Slow: 1 MB/s, so a whole chunk would be one report a second.
    for (let i = 0; i < 3; i++) {
      for (const s of writer.slices(chunk)) {
        clock += (s.length / 1e6) * 1000;
        writer.written(s.length, undefined);
      }
    }
    const slice = writer.slices(chunk)[0]!.length;
    expect((slice / 1e6) * 1000).toBeLessThanOrEqual(100);
  });
});
