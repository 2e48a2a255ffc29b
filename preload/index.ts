// The renderer's only door to the main process: window.trayshare, one named function per
// contract method (no generic invoke or send), event listeners that get the payload and never
// the IpcRendererEvent, and webUtils' path of a dropped File. Nothing here can read a token:
// the contract has no such method.
// Bundled to CommonJS with the contract inside: a sandboxed preload can only require electron.
import { contextBridge, type IpcRendererEvent, ipcRenderer, webUtils } from 'electron';
import {
  channelOf,
  type EventName,
  eventChannelOf,
  eventNames,
  GIVEN_PATHS_CHANNEL,
  type MethodName,
  methodNames,
  type TrayshareBridge,
  type TrayshareEvents,
} from './contract';

/** The parts of ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
  removeListener(
    channel: string,
    listener: (event: IpcRendererEvent, ...args: unknown[]) => void,
  ): unknown;
}

export function createBridge(
  ipc: IpcRendererLike,
  getPathForFile: (file: File) => string,
): TrayshareBridge {
  const methods = {} as Record<MethodName, (...args: unknown[]) => Promise<unknown>>;
  for (const method of methodNames) {
    const channel = channelOf(method);
    methods[method] = (...args: unknown[]) => ipc.invoke(channel, ...args);
  }
  const known = new Set<string>(eventNames);
  return {
    ...(methods as unknown as Omit<TrayshareBridge, 'on' | 'pathForFile'>),
    on<E extends EventName>(event: E, listener: (payload: TrayshareEvents[E]) => void) {
      if (!known.has(event)) throw new Error(`Unknown event: ${String(event)}`);
      const channel = eventChannelOf(event);
      const wrapped = (_event: IpcRendererEvent, payload: unknown) =>
        listener(payload as TrayshareEvents[E]);
      ipc.on(channel, wrapped);
      return () => {
        ipc.removeListener(channel, wrapped);
      };
    },
    pathForFile: (file: File) => {
      const path = getPathForFile(file);
      // Only a File the person dropped or picked has a path: main learns it was handed over.
      if (path !== '') ipc.invoke(GIVEN_PATHS_CHANNEL, [path]).catch(() => undefined);
      return path;
    },
  };
}

contextBridge.exposeInMainWorld(
  'trayshare',
  createBridge(ipcRenderer, (file) => webUtils.getPathForFile(file)),
);
