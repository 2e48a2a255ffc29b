// Work over a list, at most `limit` items at a time (the concurrency setting): each worker takes
// the next item when it is done, so one slow item never holds the others back.
export async function eachAtMost(
  count: number,
  limit: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
}
