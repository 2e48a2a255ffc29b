// One clock for two processes on this machine: epoch milliseconds with sub-millisecond
// precision, so the sink's arrival stamps and a client's own moments can be compared.
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
