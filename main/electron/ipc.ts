// Binds every method of the IPC contract (preload/contract.ts) to ipcMain.handle. Each call is
// checked in this order: the sender must be the app's own page in one of its own windows; the
// arguments must match the method's schema; only then does the implementation run.
// Refusals are logged with the method and the sender's origin, never with the arguments
// (setToken's argument is a token).
import { z } from 'zod';
import {
  channelOf,
  GIVEN_PATHS_CHANNEL,
  type MethodName,
  methodArgs,
  methodNames,
  type TrayshareApi,
} from '../../preload/contract';

/** The parts of an IpcMainInvokeEvent the check reads. */
export interface InvokeEvent {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcDeps {
  ipcMain: IpcMainLike;
  api: TrayshareApi;
  /** True when the frame URL is the app's renderer page. */
  isRendererUrl(url: string | undefined): boolean;
  /** True when the web contents belong to a window the app opened. */
  isOwnWebContents(id: number): boolean;
  describeSender(url: string | undefined): string;
  log(message: string): void;
  /**
   * Paths of files the person dropped in a window, told by the preload (webUtils gives a path
   * only for a File the person handed the page), so main knows they were handed over.
   */
  personGave?(paths: string[]): void;
  /** Runs after a call succeeded (the desktop app reacts to some, e.g. a share from the drop window). */
  afterCall?(method: MethodName, senderId: number): void;
}

class IpcRefusedError extends Error {
  override name = 'IpcRefusedError';
}

function describeIssues(error: z.ZodError): string {
  // Messages and paths only: zod issues do not carry the input values.
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length ? `argument ${issue.path.join('.')}` : 'arguments';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/** Throws unless the call came from the app's own page, top frame, in one of its windows. */
function checkSender(deps: IpcDeps, event: InvokeEvent, method: string): void {
  const frame = event.senderFrame;
  if (
    !frame ||
    frame.parent !== null ||
    !deps.isRendererUrl(frame.url) ||
    !deps.isOwnWebContents(event.sender.id)
  ) {
    deps.log(`Refused ${method}: the call came from ${deps.describeSender(frame?.url)}.`);
    throw new IpcRefusedError(
      `Refused ${method}: the call did not come from Trayshare's own window.`,
    );
  }
}

const givenPaths = z.tuple([z.array(z.string().min(1).max(4096)).max(10_000)]);

/** Binds all methods; returns a function that unbinds them. */
export function bindIpc(deps: IpcDeps): () => void {
  // Not a contract method: the page cannot call it, only the preload's pathForFile does. Handled
  // at once (no await before it), so a readImage the page sends next finds the paths known.
  deps.ipcMain.handle(GIVEN_PATHS_CHANNEL, (event, ...args) => {
    checkSender(deps, event, 'personGave');
    const parsed = givenPaths.safeParse(args);
    if (!parsed.success) throw new IpcRefusedError('Refused personGave: malformed arguments.');
    deps.personGave?.(parsed.data[0]);
  });
  for (const method of methodNames) {
    const channel = channelOf(method);
    const schema = methodArgs[method] as unknown as z.ZodType<unknown[]>;
    const implementation = deps.api[method] as (...args: unknown[]) => Promise<unknown>;
    deps.ipcMain.handle(channel, async (event, ...args) => {
      checkSender(deps, event, method);
      const parsed = schema.safeParse(args);
      if (!parsed.success) {
        deps.log(`Refused ${method}: malformed arguments.`);
        throw new IpcRefusedError(`Refused ${method}: ${describeIssues(parsed.error)}.`);
      }
      const result = await implementation.apply(deps.api, parsed.data);
      deps.afterCall?.(method, event.sender.id);
      return result;
    });
  }
  return () => {
    deps.ipcMain.removeHandler(GIVEN_PATHS_CHANNEL);
    for (const method of methodNames) deps.ipcMain.removeHandler(channelOf(method));
  };
}
