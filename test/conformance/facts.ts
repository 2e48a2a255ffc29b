// Slack's facts (slack-facts.json, written by build/scripts/slack-facts.mjs from
// slack-ruby/slack-api-ref) and the few things the conformance tests add to them, each with its
// source: Slack's general errors, arguments and codes the double or the client use beyond the
// reference, and the keys of each answer the client reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyPaths } from '../../build/scripts/slack-facts.mjs';

interface MethodFacts {
  deprecated: boolean;
  /** Argument → required (null: the reference does not say). */
  args: Record<string, boolean | null>;
  /** Keys of the objects inside an array argument (`files` → id, title, highlight_type). */
  argItemKeys?: Record<string, string[]>;
  errors: string[];
  exampleErrors: string[];
  /** One map of key path → type per example answer. */
  examples: Record<string, string>[];
}

export interface SlackFacts {
  source: { repo: string; commit: string; committed: string };
  commonErrors: string[];
  methods: Record<string, MethodFacts>;
}

export const FACTS: SlackFacts = JSON.parse(
  readFileSync(join(import.meta.dirname, 'slack-facts.json'), 'utf8'),
);

export function factsOf(method: string): MethodFacts {
  const facts = FACTS.methods[method];
  if (!facts) throw new Error(`no facts for ${method}: add it to METHODS in slack-facts.mjs`);
  return facts;
}

/**
 * Codes Slack answers for any method, beyond each method's list:
 * - invalid_auth, invalid_json: in the default error answers of every method in Slack's own
 *   OpenAPI spec (slackapi/slack-api-specs web-api/slack_web_openapi_v2.json, bc08db4), and
 *   invalid_auth the example failure of most methods in slack-api-ref;
 * - invalid_arguments: Slack's check of arguments against a method's schema ("input must match
 *   regex pattern", slackapi/bolt-js#2115); listed by slack-api-ref for 31 methods;
 * - internal_error: in slack-api-ref for auth.test and auth.revoke, and the contract's "outcome
 *   unknown" row ("some aspect of the operation may have succeeded").
 */
const GENERAL_ERRORS = ['invalid_auth', 'invalid_json', 'invalid_arguments', 'internal_error'];

/**
 * Codes the double answers that Slack does not document for that method (found by this check;
 * kept because a client never meets them from Slack in a way that matters):
 */
export const DOUBLE_ONLY_ERRORS: Record<string, string[]> = {
  // The seed's files.upload answers as the contract's table says (service-contract.md, "Error
  // codes the app must recognise"), but slack-api-ref's files.upload has never listed these
  // (methods/files/files.upload.json, every version): Slack documents channels_limit_exceeded
  // for files.completeUploadExternal and file_upload_size_restricted for
  // files.getUploadURLExternal, and no_file_data nowhere. Slack retired files.upload
  // (2025-11-12), so only the seed's service answers them.
  'files.upload': ['channels_limit_exceeded', 'file_upload_size_restricted', 'no_file_data'],
  // Answered for a limit that is not a number (the client sends numbers), as conversations.list
  // does; users.list documents no code for it.
  'users.list': ['invalid_limit'],
};

/**
 * Arguments the client sends that slack-api-ref does not list for the method: none today. An
 * entry needs its source (an SDK that sends it, or Slack's docs page) in a comment.
 */
export const UNDOCUMENTED_ARGS: Record<string, string[]> = {};

/** Whether Slack documents `code` as an answer of `method` (or of every method). */
export function documentedError(method: string, code: string): boolean {
  const facts = factsOf(method);
  return (
    facts.errors.includes(code) ||
    facts.exampleErrors.includes(code) ||
    FACTS.commonErrors.includes(code) ||
    GENERAL_ERRORS.includes(code)
  );
}

/**
 * The keys of each method's success answer that the client reads (main/core: classify.ts
 * serviceFile, send-file.ts step 1, complete.ts, file-links.ts, conversations-list.ts,
 * users-list.ts, slack-pages.ts, auth-test.ts, auth/oauth-client.ts). `*` stands for a channel ID.
 */
export const CLIENT_READS: Record<string, string[]> = {
  'auth.test': ['ok', 'user', 'team'],
  'auth.revoke': ['ok'],
  'conversations.list': [
    'ok',
    'channels',
    'channels[].id',
    'channels[].name',
    'channels[].is_archived',
    'channels[].is_im',
    'channels[].is_mpim',
    'channels[].is_private',
    'channels[].is_member',
    'channels[].user',
    'response_metadata.next_cursor',
  ],
  'users.list': [
    'ok',
    'members',
    'members[].id',
    'members[].name',
    'members[].deleted',
    'members[].real_name',
    'members[].profile.display_name',
    'members[].profile.real_name',
    'response_metadata.next_cursor',
  ],
  'files.upload': [
    'ok',
    'file.id',
    'file.name',
    'file.title',
    'file.permalink',
    'file.url_private',
    'file.size',
    'file.channels',
  ],
  'files.getUploadURLExternal': ['ok', 'upload_url', 'file_id'],
  'files.completeUploadExternal': ['ok', 'files', 'files[].id', 'files[].title'],
  'files.info': [
    'ok',
    'file.id',
    'file.permalink',
    'file.shares.public.*[].ts',
    'file.shares.private.*[].ts',
  ],
  'oauth.v2.access': [
    'ok',
    'access_token',
    'refresh_token',
    'expires_in',
    'authed_user.id',
    'authed_user.access_token',
    'authed_user.refresh_token',
    'authed_user.expires_in',
    'team.id',
    'team.name',
  ],
};
// oauth.v2.user.access is left out: its example has the user token at the top level and no
// authed_user token, refresh token or lifetime, all of which the sign-in reads (since issue 32
// the sign-in uses oauth.v2.access, whose examples have them).

/**
 * Keys the client reads that no example of the method shows, with where Slack shows them:
 */
export const READS_BEYOND_EXAMPLES: Record<string, string[]> = {
  // A file shared to a private channel or DM: the file object's `shares.private`, as in
  // files.upload's example (slack-api-ref methods/files/files.upload.json) and node-slack-sdk's
  // FilesInfoResponse (packages/web-api/src/types/response/FilesInfoResponse.ts, Shares.private).
  'files.info': ['file.shares.private.*[].ts'],
};

/** The double's IDs are shorter than Slack's: any ID-looking key is a `*`. */
const DOUBLE_ID = /^[CDGTUW][A-Z0-9]{3,}$/;

function pathsOf(answer: unknown): Record<string, string> {
  return keyPaths(answer, DOUBLE_ID);
}

/**
 * How `answer` differs from Slack's examples of `method` on the keys the client reads: empty
 * when some success example has, for every such key it holds, the same key with the same type.
 */
export function differencesFromExamples(method: string, answer: unknown): string[] {
  const reads = CLIENT_READS[method] ?? [];
  const got = pathsOf(answer);
  const examples = factsOf(method).examples.filter((e) => e.error === undefined);
  let best: string[] | undefined;
  for (const example of examples) {
    const wrong = reads
      .filter((path) => example[path] !== undefined)
      .filter((path) => got[path] === undefined || !example[path]!.split('|').includes(got[path]!))
      .map((path) => `${path}: Slack ${example[path]}, double ${got[path] ?? 'absent'}`);
    if (!best || wrong.length < best.length) best = wrong;
  }
  return best ?? [`${method} has no success example`];
}

/**
 * An answer built from an example's key paths and types: strings, numbers and booleans made
 * up, `*` keys and the values the client checks (ids it asked about, `ok`) from `given`.
 */
export function generatedAnswer(
  paths: Record<string, string>,
  given: Record<string, unknown> = {},
): Record<string, unknown> {
  const tokens = (path: string) =>
    path.split('.').flatMap((part) => {
      const name = part.replace(/(\[\])+$/, '');
      const arrays = (part.length - name.length) / 2;
      return [name, ...Array(arrays).fill('[]')];
    });
  interface Node {
    type: string;
    path: string;
    children: Map<string, Node>;
  }
  const root: Node = { type: 'object', path: '', children: new Map() };
  for (const [path, type] of Object.entries(paths).sort(([a], [b]) => a.length - b.length)) {
    let node = root;
    for (const token of tokens(path)) {
      let next = node.children.get(token);
      if (!next) {
        next = { type: 'object', path: '', children: new Map() };
        node.children.set(token, next);
      }
      node = next;
    }
    node.type = type.split('|')[0]!;
    node.path = path;
  }
  const make = (node: Node): unknown => {
    if (Object.hasOwn(given, node.path)) return given[node.path];
    switch (node.type) {
      case 'object':
        return Object.fromEntries(
          [...node.children].map(([key, child]) => [
            key === '*' ? String(given['*'] ?? 'C0GENERATED') : key,
            make(child),
          ]),
        );
      case 'array': {
        const item = node.children.get('[]');
        return item ? [make(item)] : [];
      }
      case 'string':
        return `generated ${node.path}`;
      case 'number':
        return 7;
      case 'boolean':
        return true;
      default:
        return null;
    }
  };
  return make(root) as Record<string, unknown>;
}
