// When Trayshare looks for updates and what it tells people about them: a check at start and
// every 6 hours (unless the person turned that off or the build updates some other way), the
// state Settings → About and the tray show, and a restart that waits for the queue to come to
// rest so no running upload is cut off. electron-updater does the asking, the download and the
// checks of what it downloaded (main/electron/updates.ts feeds its events in here).
import { restartToUpdateLabel, restartWaitMessage } from '../../portable/update-words';
import { describeUpdateFailure, failureLogLine } from './update-failure';
import type { UpdateSource } from './update-source';

export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;

/** What the log needs; the Electron layer hands in the app's log. */
export interface UpdateLogger {
  info(message: string): void;
  warn(message: string): void;
}

export type UpdateStatus =
  | 'unavailable' // this build updates through its installer's channel, or is a dev run
  | 'idle'
  | 'checking'
  | 'downloading'
  | 'up-to-date'
  | 'failed'
  | 'ready' // downloaded: "Restart to update to X"
  | 'restarting'; // waiting for the queue, then quitAndInstall

export interface UpdateView {
  status: UpdateStatus;
  /** One line for Settings → About. */
  message: string;
  /** The "Check for updates automatically" preference as applied. */
  automatic: boolean;
  /** "Check now" can be offered. */
  canCheck: boolean;
  /** The downloaded version (ready, restarting) or the one downloading. */
  version?: string;
  /** restarting: the uploads it waits for. */
  waitingFor?: number;
  /** "Restart to update to 1.2.0" while one is ready. */
  restartLabel?: string;
  /** How else this copy updates, e.g. the package manager's command that installed it. */
  installNote?: string;
}

export interface UpdateQueue {
  /** Resolves when nothing can move without the person (the queue's settle watch). */
  settled(): Promise<void>;
  /** Uploads still on their way, for "Restarting when the 3 uploads finish…". */
  running(): number;
}

export interface Timers {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface UpdatePolicyDeps {
  source: UpdateSource;
  automatic: boolean;
  /** Asks the feed; what it finds arrives through the event methods below. */
  check(): Promise<unknown>;
  /** Quits and installs the downloaded update. */
  install(): void;
  queue: UpdateQueue;
  timers?: Timers;
  log: UpdateLogger;
  onChange(view: UpdateView): void;
}

const realTimers: Timers = {
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export class UpdatePolicy {
  private status: UpdateStatus;
  private message = '';
  private automatic: boolean;
  private downloading: string | undefined;
  private readyVersion: string | undefined;
  private restart: { generation: number; waitingFor: number } | null = null;
  /** install() was called: a failure now is the installer's, and the app keeps running. */
  private installing = false;
  private generation = 0;
  private interval: unknown = null;
  private readonly timers: Timers;

  constructor(private readonly deps: UpdatePolicyDeps) {
    this.timers = deps.timers ?? realTimers;
    this.automatic = deps.automatic;
    this.status = deps.source.updatesItself ? 'idle' : 'unavailable';
  }

  /** At start: the first check and the 6-hourly ones, when allowed. */
  start(): void {
    if (!this.deps.source.updatesItself) {
      this.deps.log.info(`Updates: not checking (${this.deps.source.reason})`);
      return;
    }
    if (!this.automatic) {
      this.deps.log.info('Updates: automatic checks are off');
      return;
    }
    this.deps.log.info('Updates: checking now and every 6 hours');
    this.schedule();
    void this.checkNow();
  }

  /** The preference changed: start or stop the automatic checks. */
  setAutomatic(automatic: boolean): void {
    if (automatic === this.automatic) return;
    this.automatic = automatic;
    if (!automatic) this.unschedule();
    else if (this.deps.source.updatesItself) {
      this.schedule();
      void this.checkNow();
    }
    this.changed();
  }

  /** "Check now", and each scheduled check. Failures arrive as `failed`, never thrown. */
  async checkNow(): Promise<UpdateView> {
    if (!this.deps.source.updatesItself || this.status === 'restarting') return this.view();
    try {
      await this.deps.check();
    } catch {
      // electron-updater emits 'error' for every failed check: `failed` has it already.
    }
    return this.view();
  }

  checking(): void {
    this.set('checking');
  }

  found(version: string): void {
    this.deps.log.info(`Updates: ${version} is available, downloading it`);
    this.downloading = version;
    this.set('downloading');
  }

  notFound(latest: string | undefined): void {
    this.deps.log.info(`Updates: up to date${latest ? ` (the feed offers ${latest})` : ''}`);
    this.set('up-to-date');
  }

  downloaded(version: string): void {
    this.deps.log.info(`Updates: ${version} is downloaded and checked; it installs on restart`);
    this.downloading = undefined;
    this.readyVersion = version;
    this.set('ready');
  }

  failed(error: unknown): void {
    const failure = describeUpdateFailure(error);
    this.deps.log.warn(`Updates: ${failure.kind}: ${failureLogLine(error)}`);
    if (this.installing) {
      // The update stays downloaded: "Restart to update" is offered again, or it installs on quit.
      this.installing = false;
      this.restart = null;
    }
    const downloadFailed = this.downloading !== undefined;
    this.downloading = undefined;
    this.message = downloadFailed
      ? `Couldn't download the update (${failure.why})`
      : `Couldn't check for updates (${failure.why})`;
    this.set('failed', this.message);
  }

  /** Waits for the uploads to finish, then quits and installs. Cancellable until then. */
  async restartToUpdate(): Promise<UpdateView> {
    if (!this.readyVersion || this.restart) return this.view();
    const generation = ++this.generation;
    this.restart = { generation, waitingFor: this.deps.queue.running() };
    this.deps.log.info(
      `Updates: restarting to install ${this.readyVersion} once ${this.restart.waitingFor} upload(s) finish`,
    );
    this.set('restarting');
    void this.deps.queue.settled().then(() => {
      if (this.restart?.generation !== generation) return;
      this.deps.log.info(`Updates: the queue is at rest, installing ${this.readyVersion}`);
      this.installing = true;
      this.deps.install();
    });
    return this.view();
  }

  cancelRestart(): UpdateView {
    if (this.restart) {
      this.restart = null;
      this.deps.log.info('Updates: restart cancelled; the update installs when Trayshare quits');
      this.set('ready');
    }
    return this.view();
  }

  /** The queue moved: the restart message counts what is left. */
  queueChanged(): void {
    if (!this.restart) return;
    const running = this.deps.queue.running();
    if (running === this.restart.waitingFor) return;
    this.restart.waitingFor = running;
    this.changed();
  }

  view(): UpdateView {
    const base = {
      status: this.status,
      automatic: this.automatic,
      canCheck:
        this.deps.source.updatesItself &&
        this.status !== 'checking' &&
        this.status !== 'downloading' &&
        this.status !== 'restarting',
    };
    const ready = this.readyVersion
      ? { version: this.readyVersion, restartLabel: restartToUpdateLabel(this.readyVersion) }
      : this.downloading
        ? { version: this.downloading }
        : {};
    const waiting = this.restart ? { waitingFor: this.restart.waitingFor } : {};
    const source = this.deps.source;
    const note = source.updatesItself && source.note ? { installNote: source.note } : {};
    return { ...base, ...ready, ...waiting, ...note, message: this.describe() };
  }

  dispose(): void {
    this.unschedule();
    this.restart = null;
  }

  private describe(): string {
    switch (this.status) {
      case 'unavailable':
        return this.deps.source.updatesItself ? '' : this.deps.source.reason;
      case 'idle':
        return this.automatic
          ? 'Trayshare checks for updates at start and every 6 hours.'
          : 'Automatic update checks are off.';
      case 'checking':
        return 'Checking for updates…';
      case 'downloading':
        return `Downloading Trayshare ${this.downloading ?? 'update'}…`;
      case 'up-to-date':
        return 'Trayshare is up to date.';
      case 'failed':
        return this.message;
      case 'ready':
        return `Trayshare ${this.readyVersion} is ready. It installs when you restart or quit.`;
      case 'restarting':
        return restartWaitMessage(this.restart?.waitingFor ?? 0);
    }
  }

  private set(status: UpdateStatus, message = ''): void {
    // A downloaded update stays on offer whatever a later check says.
    if (this.readyVersion && status !== 'restarting' && !this.restart) {
      this.status = status === 'downloading' || status === 'checking' ? status : 'ready';
      if (status === 'failed') this.deps.log.info('Updates: the downloaded update stays ready');
    } else if (!this.restart || status === 'restarting') {
      this.status = status;
    }
    this.message = message;
    this.changed();
  }

  private changed(): void {
    this.deps.onChange(this.view());
  }

  private schedule(): void {
    if (this.interval !== null) return;
    this.interval = this.timers.setInterval(() => void this.checkNow(), CHECK_EVERY_MS);
  }

  private unschedule(): void {
    if (this.interval === null) return;
    this.timers.clearInterval(this.interval);
    this.interval = null;
  }
}
