// The state behind Slack's external upload protocol. Each files.getUploadURLExternal call opens
// a ticket: an upload_url with a secret, valid for the TTL. Bytes posted there wait in the
// incoming folder; files.completeUploadExternal shares them once. A ticket not completed within
// the TTL is discarded and its bytes deleted, as Slack discards uploads never completed.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Digest } from './disk-sink';
import { newId } from './file-object';

type TicketState = 'waiting' | 'receiving' | 'uploaded' | 'completed' | 'discarded';

export interface Ticket {
  id: string;
  secret: string;
  user: string;
  filename: string;
  /** Bytes announced by files.getUploadURLExternal. */
  length: number;
  expiresAt: number;
  state: TicketState;
  /** Where the bytes wait until completion. */
  path: string;
  digest?: Digest;
}

export class ExternalUploads {
  private readonly tickets = new Map<string, Ticket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly opts: {
      dir: string;
      ttlMs: number;
      now: () => number;
      log: (line: string) => void;
    },
  ) {}

  open(user: string, filename: string, length: number): Ticket {
    const ticket: Ticket = {
      id: newId('F'),
      secret: randomBytes(16).toString('hex'),
      user,
      filename,
      length,
      expiresAt: this.opts.now() + this.opts.ttlMs,
      state: 'waiting',
      path: '',
    };
    ticket.path = join(this.opts.dir, `${ticket.id}.external`);
    this.tickets.set(ticket.id, ticket);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.expire(ticket);
    }, this.opts.ttlMs);
    timer.unref();
    this.timers.add(timer);
    return ticket;
  }

  /** The ticket for an upload_url, if the secret matches. */
  byUrl(id: string, secret: string | null): Ticket | undefined {
    const ticket = this.tickets.get(id);
    return ticket && secret === ticket.secret ? ticket : undefined;
  }

  byId(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }

  isDiscarded(ticket: Ticket): boolean {
    return ticket.state === 'discarded';
  }

  /** Discards the ticket if its time is up and it was not completed; true when it is gone. */
  async expireIfDue(ticket: Ticket): Promise<boolean> {
    if (ticket.state === 'discarded') return true;
    if (ticket.state === 'completed' || this.opts.now() < ticket.expiresAt) return false;
    await this.expire(ticket);
    return true;
  }

  private async expire(ticket: Ticket): Promise<void> {
    if (ticket.state === 'completed' || ticket.state === 'discarded') return;
    // Bytes still arriving are deleted by the upload handler when it sees this state.
    ticket.state = 'discarded';
    this.opts.log(`external upload ${ticket.id} not completed in time: discarded`);
    await rm(ticket.path, { force: true });
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
