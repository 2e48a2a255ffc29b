// Arguments of the small Web API calls (auth.test, files.getUploadURLExternal,
// files.completeUploadExternal), sent as Slack accepts them: form-urlencoded, JSON or
// multipart text parts. Arguments come from the body only; a `token` among them is ignored
// (the contract accepts the token in the Authorization header only).
import type { Exchange } from './exchange';
import { isMultipart, receiveMultipart } from './multipart';

export type Args = Record<string, unknown>;

export type ArgsOutcome =
  | { kind: 'ok'; args: Args }
  | { kind: 'invalid'; code: 'invalid_form_data' | 'invalid_json'; bodyRead: boolean }
  | { kind: 'aborted' };

const MAX_ARGS_BYTES = 1024 * 1024;

function readSmallBody(ex: Exchange): Promise<Buffer | 'too-large' | 'aborted'> {
  const { req } = ex;
  ex.letBodyCome();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_ARGS_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('close', () => {
      if (!req.complete) resolve('aborted');
    });
  });
}

export async function readArgs(ex: Exchange): Promise<ArgsOutcome> {
  const { req } = ex;
  if (isMultipart(req)) {
    ex.letBodyCome();
    const outcome = await receiveMultipart(req, {});
    if (outcome.kind === 'aborted') return outcome;
    if (outcome.kind !== 'ok')
      return { kind: 'invalid', code: 'invalid_form_data', bodyRead: false };
    return read(ex, Object.fromEntries(outcome.fields));
  }

  const body = await readSmallBody(ex);
  if (body === 'aborted') return { kind: 'aborted' };
  if (body === 'too-large') return { kind: 'invalid', code: 'invalid_form_data', bodyRead: false };
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return { kind: 'invalid', code: 'invalid_json', bodyRead: true };
      }
      return read(ex, parsed as Args);
    } catch {
      return { kind: 'invalid', code: 'invalid_json', bodyRead: true };
    }
  }
  return read(ex, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
}

/** The arguments as sent go to the request log; the handler gets them without a `token`. */
function read(ex: Exchange, args: Args): ArgsOutcome {
  ex.noteArgs(args);
  const { token: _ignored, ...rest } = args;
  return { kind: 'ok', args: rest };
}

export function stringArg(args: Args, name: string): string | undefined {
  const value = args[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
