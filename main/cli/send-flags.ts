// The options of `trayshare send`, declared once. Commander's options (commands/send.ts and the
// subset `capture` shares), the type of what commander hands the command (`SendOptions`) and the
// scan of the raw arguments that runs before commander is loaded (send-early.ts, which must
// know which options take a value, or it would read that value as a file name) all come from
// this list, so a new option is one entry here: its type follows, and the early scan skips its
// value without being told.
//
// Plain data with no imports: send-early.ts reads it before anything else of the CLI is loaded.

/** How long a send may wait for a service that asked to be left alone (Retry-After). */
export const DEFAULT_MAX_WAIT_S = 300;

export const SEND_FLAGS = [
  { flag: '--preset <name>', help: 'share with a saved preset' },
  { flag: '--workspace <name>', help: 'a saved workspace (with --channels)' },
  {
    flag: '--base-url <url>',
    help: 'no saved workspace: the service address (token from TRAYSHARE_TOKEN)',
  },
  {
    flag: '--protocol <protocol>',
    help: "with --base-url: files.upload (default) or external (Slack's current upload protocol)",
  },
  {
    flag: '--channels <list>',
    help: "channels or people, by name or ID, comma-separated, e.g. '#design-review,C0456,@alice,U0789'",
  },
  {
    flag: '--comment <text>',
    help: 'comment posted once, with the first file (with --protocol external: on the message that carries it, of up to 10 files)',
  },
  {
    flag: '--thread <link or ts>',
    help: 'reply in this thread: a message link or its ts (one channel)',
  },
  { flag: '--filename <name>', help: 'file name for standard input (-)' },
  { flag: '--json', help: 'one JSON line per file on stdout' },
  {
    flag: '--keep-metadata',
    help: 'send photos and videos as they are, with their location, serial numbers and thumbnails (by default these are removed)',
  },
  {
    flag: '--max-wait <seconds>',
    help: `the longest to wait when the service asks to (Retry-After); default ${DEFAULT_MAX_WAIT_S}`,
  },
] as const;

type SendFlag = (typeof SEND_FLAGS)[number]['flag'];

/** '--base-url <url>' → 'base-url'; '--json' → 'json'. */
type FlagName<F extends string> = F extends `--${infer Name} <${string}>`
  ? Name
  : F extends `--${infer Name}`
    ? Name
    : never;

/** Commander's own naming: 'base-url' → 'baseUrl'. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** The name of a flag's value in the object commander hands the command. */
export type SendOptionKey<F extends SendFlag = SendFlag> = Camel<FlagName<F>>;

/** What commander hands `send`: a string for each option that takes a value, else a boolean. */
export type SendOptions = {
  [F in SendFlag as SendOptionKey<F>]?: F extends `${string} <${string}>` ? string : boolean;
};

/** The spelling on the command line ('--base-url') of each option that takes a value. */
export const VALUE_FLAGS: ReadonlySet<string> = new Set(
  SEND_FLAGS.flatMap(({ flag }) => (flag.includes(' <') ? [flag.slice(0, flag.indexOf(' '))] : [])),
);

/** One option's flag and help, for a command that takes some of `send`'s (its own words may differ). */
export function sendFlag(key: SendOptionKey, help?: string): [flag: string, help: string] {
  const found = SEND_FLAGS.find(({ flag }) => optionKey(flag) === key);
  if (!found) throw new Error(`send has no option ${key}`);
  return [found.flag, help ?? found.help];
}

/** Commander's key for a flag, at run time: '--max-wait <seconds>' → 'maxWait'. */
function optionKey(flag: string): SendOptionKey {
  const name = flag.replace(/^--/, '').split(' ')[0] ?? '';
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as SendOptionKey;
}
