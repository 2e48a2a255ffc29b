// A queue item copied field by field. Every change event hands listeners a copy of every item
// (queue-events.ts), so with hundreds of small files the copying is paid hundreds of times over:
// structuredClone took 9–15 µs an item here, this 0.4 µs, and was 30% of the CPU of a 300-file
// share through the queue (bench/small-files.ts). Items are JSON-shaped (model.ts): what is
// nested, arrays and the error and file objects, is copied too, so no copy shares anything with
// the queue's own item.
import type { FailureReason, QueueItem, ServiceFile } from '../model';

function copyReason(r: FailureReason): FailureReason {
  return {
    ...r,
    ...(r.channels ? { channels: [...r.channels] } : {}),
    ...(r.refusedChannels ? { refusedChannels: [...r.refusedChannels] } : {}),
  };
}

function copyFile(f: ServiceFile): ServiceFile {
  return { ...f, ...(f.channels ? { channels: [...f.channels] } : {}) };
}

export function copyItem(item: QueueItem): QueueItem {
  const copy: QueueItem = { ...item, channels: [...item.channels] };
  if (item.error) copy.error = copyReason(item.error);
  if (item.file) copy.file = copyFile(item.file);
  return copy;
}
