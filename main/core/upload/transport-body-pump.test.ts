import { describe, expect, it } from 'vitest';
import { pumpBody } from './transport';

function body(count: number, log: string[], failAt?: number) {
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (let i = 0; i < count; i++) {
          log.push(`pull ${i}`);
          if (i === failAt) throw new Error('file changed');
          yield new Uint8Array([i]);
        }
      } finally {
        log.push('closed');
      }
    },
  };
}

describe('a request body goes chunk by chunk, in order, and stops with its request', () => {
  it('writes every chunk in order and ends', async () => {
    const log: string[] = [];
    const written: number[] = [];
    const outcome = await pumpBody(
      body(3, log),
      () => false,
      async (c) => {
        written.push(c[0] as number);
        return true;
      },
    );
    expect(outcome).toBe('ended');
    expect(written).toEqual([0, 1, 2]);
  });

  it('never pulls another chunk once the request is over, and closes the body', async () => {
    const log: string[] = [];
    let over = false;
    const outcome = await pumpBody(
      body(3, log),
      () => over,
      async (c) => {
        if (c[0] === 1) over = true;
        return true;
      },
    );
    expect(outcome).toBe('stopped');
    expect(log).toEqual(['pull 0', 'pull 1', 'closed']);
  });

  it('stops when the writer says so', async () => {
    const log: string[] = [];
    const outcome = await pumpBody(
      body(3, log),
      () => false,
      async () => false,
    );
    expect(outcome).toBe('stopped');
    expect(log).toEqual(['pull 0', 'closed']);
  });

  it("rejects with the body's own error", async () => {
    const log: string[] = [];
    await expect(
      pumpBody(
        body(3, log, 1),
        () => false,
        async () => true,
      ),
    ).rejects.toThrow('file changed');
    expect(log).toEqual(['pull 0', 'pull 1', 'closed']);
  });
});
