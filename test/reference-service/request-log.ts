// An opt-in record of every Web API request the reference service got: the method, the
// arguments as the service read them (query string, form, JSON or multipart parts, the file
// part named as such) and the answer it gave. test/conformance checks these against Slack's
// own reference (slack-facts.json). Test-only, like /_test/: Slack shows nothing of the kind.

export interface RecordedRequest {
  /** The name after /api/ ("files.info"). */
  method: string;
  /** Every argument by name, as received (a `token` among them is kept: it should not be there). */
  args: Record<string, unknown>;
  /** The answer: its status and, when it was JSON, the parsed body. Absent: none was sent. */
  answer?: { status: number; body: unknown };
}

export class RequestLog {
  private readonly all: RecordedRequest[] = [];

  /** Starts the record of one request; query arguments count, as Slack reads them too. */
  open(method: string, query: URLSearchParams): RecordedRequest {
    const entry: RecordedRequest = { method, args: Object.fromEntries(query) };
    this.all.push(entry);
    return entry;
  }

  read(): RecordedRequest[] {
    return structuredClone(this.all);
  }
}

/** What the answer's body says, when it is JSON; the text cut short otherwise. */
export function answerBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
