// Writes test/conformance/slack-facts.json: what Slack's own Web API reference says about every
// method Trayshare calls or its reference service serves, as facts a test can check the double
// and the client against. The source is a checkout of slack-ruby/slack-api-ref (MIT), which
// keeps one JSON file per method, `methods/<group>/<method>.json`, refreshed from
// docs.slack.dev. Only facts are kept (argument names and whether they are required, error
// codes, the key paths and value types of each example answer); no description text.
//
// Usage (any OS): git clone https://github.com/slack-ruby/slack-api-ref
//                 node build/scripts/slack-facts.mjs path/to/slack-api-ref
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FACTS_PATH = join(root, 'test', 'conformance', 'slack-facts.json');

/**
 * The methods: what main/ calls (apiUrl) and test/reference-service/server.ts routes, plus
 * oauth.v2.access, the exchange of Slack's PKCE pair (docs.slack.dev/authentication/using-pkce).
 * test/conformance/facts.test.ts fails when a method is called or served and missing here.
 */
export const METHODS = [
  'auth.revoke',
  'auth.test',
  'conversations.list',
  'files.completeUploadExternal',
  'files.getUploadURLExternal',
  'files.info',
  'files.upload',
  'oauth.v2.access',
  'oauth.v2.user.access',
  'users.list',
];

/** A key that is data, not a name (a channel ID under `shares.public`): written as `*`. */
const ID_KEY = /^[A-Z][A-Z0-9]{7,}$/;

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * `{"a":{"b":[{"c":1}]}}` → {a: 'object', 'a.b': 'array', 'a.b[].c': 'number'}; a key that
 * `idKey` matches is written `*`.
 */
export function keyPaths(value, idKey = ID_KEY, prefix = '', into = {}) {
  const note = (path, type) => {
    const seen = into[path];
    if (seen === undefined) into[path] = type;
    else if (!seen.split('|').includes(type))
      into[path] = [...seen.split('|'), type].sort().join('|');
  };
  if (Array.isArray(value)) {
    for (const item of value) {
      note(`${prefix}[]`, typeOf(item));
      keyPaths(item, idKey, `${prefix}[]`, into);
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const path = `${prefix}${prefix ? '.' : ''}${idKey.test(key) ? '*' : key}`;
      note(path, typeOf(item));
      keyPaths(item, idKey, path, into);
    }
  }
  return into;
}

function sorted(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}

/** One method's facts from its reference file (and the keys of array arguments' items). */
function methodFacts(ref, detailed) {
  const args = {};
  for (const [name, arg] of Object.entries(ref.args ?? {})) {
    // null: the reference does not say (it leaves `required` out for the oauth methods).
    args[name] = typeof arg.required === 'boolean' ? arg.required : null;
  }
  const argItemKeys = {};
  for (const [name, arg] of Object.entries(detailed?.args?.properties ?? {})) {
    const keys = Object.keys(arg?.items?.properties ?? {});
    if (keys.length > 0) argItemKeys[name] = keys.sort();
  }
  const answers = (ref.response?.examples ?? []).map((text) => JSON.parse(text));
  // The code of each example failure ({"ok": false, "error": "invalid_auth"} on most pages).
  const exampleErrors = answers
    .filter((a) => a?.ok === false && typeof a.error === 'string')
    .map((a) => a.error);
  return {
    deprecated: ref.deprecated === true,
    args: sorted(args),
    ...(Object.keys(argItemKeys).length > 0 ? { argItemKeys: sorted(argItemKeys) } : {}),
    errors: Object.keys(ref.errors ?? {}).sort(),
    exampleErrors: [...new Set(exampleErrors)].sort(),
    examples: answers.map((a) => sorted(keyPaths(a))),
  };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function collectFacts(checkout) {
  const git = (...args) =>
    execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8' }).trim();
  const methods = {};
  for (const name of METHODS) {
    const group = name.split('.')[0];
    const ref = readJson(join(checkout, 'methods', group, `${name}.json`));
    const detailedPath = join(checkout, 'docs.slack.dev', 'methods', `${name}.json`);
    methods[name] = methodFacts(ref, existsSync(detailedPath) ? readJson(detailedPath) : undefined);
  }
  const common = readJson(join(checkout, 'methods', '_errors', 'common.json'));
  return {
    source: {
      repo: 'https://github.com/slack-ruby/slack-api-ref',
      commit: git('rev-parse', 'HEAD'),
      committed: git('show', '-s', '--format=%cI', 'HEAD'),
      files:
        'methods/<group>/<method>.json; commonErrors from methods/_errors/common.json; argItemKeys from docs.slack.dev/methods/<method>.json',
    },
    commonErrors: Object.keys(common.errors ?? {}).sort(),
    methods,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const checkout = process.argv[2];
  if (!checkout || !existsSync(join(checkout, 'methods'))) {
    console.error(
      'usage: node build/scripts/slack-facts.mjs <checkout of slack-ruby/slack-api-ref>',
    );
    process.exit(2);
  }
  const facts = collectFacts(checkout);
  writeFileSync(FACTS_PATH, `${JSON.stringify(facts, null, 2)}\n`);
  // Formatted as `npm run lint` checks it, so a refresh changes only what Slack changed.
  const biome = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
  execFileSync(process.execPath, [biome, 'format', '--write', FACTS_PATH], { stdio: 'ignore' });
  console.log(`wrote ${FACTS_PATH} from slack-api-ref ${facts.source.commit}`);
}
