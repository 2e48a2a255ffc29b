// Sharing what the clipboard holds (the tray's clipboard items and the shortcut): its files,
// else its image (a screenshot) saved as a PNG in the state folder.

import type { AppService } from '../../preload/contract';
import { errorMessage } from '../portable/error-message';
import { type ClipboardLike, readClipboardFiles, readClipboardImage } from './clipboard-paths';
import type { NotificationContent } from './notifications';

type ClipboardContent = { paths: string[] } | { paths: null; otherText: boolean };

export interface ClipboardShare {
  /** What the clipboard holds to share; null paths when neither (`otherText` when it holds text). */
  content(): Promise<ClipboardContent>;
  /** The clipboard's paths, or null after telling the person why there are none. */
  files(): Promise<string[] | null>;
}

export function createClipboardShare(deps: {
  platform: NodeJS.Platform;
  clipboard: ClipboardLike;
  service: Pick<AppService, 'savePastedBytes'>;
  notify(content: NotificationContent): void;
}): ClipboardShare {
  const { platform, clipboard, service, notify } = deps;

  const content = async (): Promise<ClipboardContent> => {
    const clip = await readClipboardFiles(clipboard, platform);
    if (clip.paths.length > 0) return { paths: clip.paths };
    const image = await readClipboardImage(clipboard);
    if (image) return { paths: [await service.savePastedBytes(image)] };
    return { paths: null, otherText: clip.otherText };
  };

  const files = async (): Promise<string[] | null> => {
    let clip: ClipboardContent;
    try {
      clip = await content();
    } catch (error) {
      notify({ title: 'Could not share the clipboard', body: errorMessage(error) });
      return null;
    }
    if (clip.paths) return clip.paths;
    notify({
      title: 'Nothing to share on the clipboard',
      body: clip.otherText
        ? 'The clipboard holds text. Trayshare shares files and images only: save the text to a file, or copy files in your file manager.'
        : 'Copy files in your file manager, or take a screenshot to the clipboard, then share the clipboard.',
    });
    return null;
  };

  return { content, files };
}
