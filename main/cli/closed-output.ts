// A reader that stops early (`trayshare send --json … | head -1`) closes the pipe, and Node
// fails the next write with EPIPE: unhandled, that stream error would end the process mid-send
// with a stack trace and leave its files interrupted. The command goes on without the output
// instead, so every file still ends delivered or failed, journaled as ever, and the exit code
// says which, as usual. Any other stream error still ends the process.
const CLOSED = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

export function keepGoingWhenOutputCloses(
  streams: NodeJS.WritableStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!CLOSED.has(error.code ?? '')) throw error;
    });
  }
}
