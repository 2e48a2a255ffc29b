// Reads a trayshare:// set-up link (main/portable/setup-link.ts) as it arrives from the OS: on
// the command line (Windows, Linux) or in macOS's open-url. Anything may be handed to the app
// this way, so every field is checked and anything unexpected refuses the whole link with one
// sentence that says what is wrong; nothing of a refused link is used.
import { z } from 'zod';
import { checkBaseUrl } from '../portable/credentials';
import { SETUP_HOST, SETUP_PARAMS, SETUP_SCHEME, type SetupLink } from '../portable/setup-link';

const MAX_LINK = 4096;

const baseUrl = z
  .string()
  .min(1, 'it has no service address')
  .max(2000)
  .superRefine((value, ctx) => {
    const check = checkBaseUrl(value);
    if (!check.ok) {
      ctx.addIssue({
        code: 'custom',
        message: `its service address is refused (${check.message.replace(/\.$/, '')})`,
      });
    }
  });

// Slack's client IDs are two dot-separated numbers ("1234567890.1234567890123"); a Slack-style
// service may use other letters, so the check is what can safely be a client ID, not Slack's form.
const clientId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,200}$/, 'its client ID is not one (letters, digits, dots and dashes)')
  .refine((value) => !/^xox[a-z]-/i.test(value), 'it carries a token where the client ID goes');

/** Scripts whose letters pass for each other ("Асme" with a Cyrillic А and e). */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

const name = z
  .string()
  .min(1)
  .max(200, 'its workspace name is longer than 200 characters')
  .refine((value) => !/\p{Cc}/u.test(value), 'its workspace name holds control characters')
  // Bidi controls, zero-width and other invisible characters reorder or hide what is shown.
  .refine(
    (value) => !/\p{Cf}/u.test(value),
    'its workspace name holds invisible or text-direction characters',
  )
  // Letters of two look-alike alphabets mixed, or compatibility forms (fullwidth ｓｌａｃｋ, ligatures).
  .refine(
    (value) =>
      LOOKALIKE_SCRIPTS.filter((script) => script.test(value)).length <= 1 &&
      value.normalize('NFKC') === value,
    'its workspace name mixes look-alike letters (such as Latin and Cyrillic)',
  );

const fields = z
  .object({
    [SETUP_PARAMS.baseUrl]: baseUrl,
    [SETUP_PARAMS.clientId]: clientId,
    [SETUP_PARAMS.name]: name.optional(),
  })
  .strict();

export type SetupLinkCheck = { ok: true; link: SetupLink } | { ok: false; error: string };

const refuse = (why: string): SetupLinkCheck => ({
  ok: false,
  error: `This set-up link cannot be used: ${why}. Ask for a new one from whoever shared it.`,
});

/** True when a command-line argument is a set-up link (any case of the scheme). */
export function isSetupLink(arg: string): boolean {
  return arg.toLowerCase().startsWith(`${SETUP_SCHEME}:`);
}

/** The first set-up link among the arguments a launch was given, if any. */
export function setupLinkFromArgv(argv: readonly string[]): string | undefined {
  return argv.find(isSetupLink);
}

/**
 * An international host name in the ASCII (xn--) form the browser will use, so "slаck.com" with a
 * Cyrillic а is shown as what it is; any other address is kept as given.
 */
function asciiHost(baseUrl: string): string {
  if (/^[\x20-\x7e]*$/.test(baseUrl)) return baseUrl;
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

export function parseSetupLink(raw: string): SetupLinkCheck {
  if (raw.length > MAX_LINK) return refuse('it is too long');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('it is not a link');
  }
  if (url.protocol !== `${SETUP_SCHEME}:`) return refuse(`it is a ${url.protocol} link`);
  // Browsers and OSes may add a slash after the host ("trayshare://setup/?…").
  if (url.hostname.toLowerCase() !== SETUP_HOST || !['', '/'].includes(url.pathname)) {
    return refuse('it does not ask to set up a workspace');
  }
  if (url.username || url.password || url.port || url.hash) {
    return refuse('it carries parts a set-up link never has');
  }
  const values: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (Object.hasOwn(values, key)) return refuse(`it gives ${key} twice`);
    values[key] = value;
  }
  const parsed = fields.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const why =
      issue.code === 'unrecognized_keys'
        ? `it carries ${issue.keys.join(', ')}, which a set-up link never has`
        : issue.code === 'invalid_type'
          ? `it has no ${String(issue.path[0])}`
          : issue.message;
    return refuse(why);
  }
  const data = parsed.data;
  const named = data[SETUP_PARAMS.name]?.trim();
  return {
    ok: true,
    link: {
      baseUrl: asciiHost(data[SETUP_PARAMS.baseUrl].trim()),
      clientId: data[SETUP_PARAMS.clientId],
      ...(named ? { name: named } : {}),
    },
  };
}
