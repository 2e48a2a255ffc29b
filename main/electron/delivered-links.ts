// "Copy the link when an upload is delivered": the links of one share, one a line, so a share
// of several files leaves all of its links on the clipboard, not just the last one.
import type { QueueItem } from '../../preload/contract';

export function createLinkCopier(deps: {
  enabled(): boolean;
  writeClipboard(text: string): void;
}): (item: QueueItem) => void {
  const deliveredLinks = new Map<string, string[]>();
  return (item) => {
    const link = item.file?.permalink;
    if (item.state !== 'delivered' || !link || !deps.enabled()) return;
    const links = [...(deliveredLinks.get(item.shareId) ?? []), link];
    // Only the latest share is kept: a new share's links replace the older ones on the clipboard.
    deliveredLinks.clear();
    deliveredLinks.set(item.shareId, links);
    deps.writeClipboard(links.join('\n'));
  };
}
