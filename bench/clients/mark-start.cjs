// Loaded with `node --require` before a link-share client's entry (bench/link-share.ts): the
// first code of the process that is not Node's own, the same for Trayshare and for the SDK's
// script. It writes one line to stderr, the moment as milliseconds since the epoch (the time
// origin plus `performance.now()`, comparable with the bench's own clock on this machine) and
// as milliseconds since the process's time origin (what Node's bootstrap took).
const now = performance.now();
process.stderr.write(`bench-start ${performance.timeOrigin + now} ${now}\n`);
