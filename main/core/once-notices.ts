// Things worth saying once per workspace for as long as the app or command runs, such as
// "links need files:read": every upload meets the same cause, and repeating it is noise.

export interface Notice {
  workspaceId: string;
  message: string;
}

export class OnceNotices {
  private readonly said = new Set<string>();
  private readonly listeners = new Set<(notice: Notice) => void>();

  say(notice: Notice): void {
    const key = `${notice.workspaceId}\n${notice.message}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    for (const listener of this.listeners) listener(notice);
  }

  on(listener: (notice: Notice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
