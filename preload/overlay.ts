// The capture overlay's preload (Windows): window.trayshareOverlay with three named calls and no
// more. Not the app's bridge: the overlay page can neither share nor read settings or files.
import { contextBridge, ipcRenderer } from 'electron';
import { OVERLAY_CHANNELS, type OverlayBridge, type OverlayImage } from './overlay-contract';

const bridge: OverlayBridge = {
  image: () => ipcRenderer.invoke(OVERLAY_CHANNELS.image) as Promise<OverlayImage>,
  ready: () => ipcRenderer.invoke(OVERLAY_CHANNELS.ready) as Promise<void>,
  choose: (input) => ipcRenderer.invoke(OVERLAY_CHANNELS.choose, input) as Promise<boolean>,
};

contextBridge.exposeInMainWorld('trayshareOverlay', bridge);
