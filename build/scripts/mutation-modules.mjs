// The modules that carry Trayshare's promises, for `npm run mutate` (StrykerJS), each with the
// test files that guard it. A run mutates one module at a time and runs only its tests (through
// vitest.mutate.config.ts), so each takes minutes on a 2-core machine, not the whole suite per
// mutant. docs/mutation.md reports the scores.
// `staticMutants`: the module's behaviour is mostly module-level constants (redact.ts's patterns),
// which Stryker skips by default (`ignoreStatic`); for these it runs them, reloading the tests.
/** @type {Record<string, { promise: string; mutate: string[]; tests: string[]; staticMutants?: boolean }>} */
export const MUTATION_MODULES = {
  journal: {
    promise: 'nothing lost, nothing twice',
    mutate: ['main/core/queue/journal.ts'],
    tests: [
      'main/core/queue/journal.test.ts',
      'main/core/queue/journal-recovery.test.ts',
      'main/core/queue/body-complete-record.test.ts',
    ],
  },
  'item-lifecycle': {
    promise: 'nothing lost, nothing twice',
    mutate: ['main/core/queue/item-lifecycle.ts'],
    tests: [
      'main/core/queue/upload-queue.test.ts',
      'main/core/queue/checkpoint.test.ts',
      'main/core/queue/share-groups.test.ts',
      'main/core/queue/unwritable-journal.test.ts',
      'main/core/queue/body-complete-record.test.ts',
      'main/core/queue/item-lifecycle.test.ts',
      'main/core/queue/item-lifecycle-edges.test.ts',
    ],
  },
  'failure-policy': {
    promise: 'nothing lost, nothing twice',
    mutate: ['main/core/queue/failure-policy.ts'],
    tests: [
      'main/core/queue/failure-policy.test.ts',
      'main/core/queue/failure-policy-edges.test.ts',
    ],
  },
  'external-complete': {
    promise: 'nothing lost, nothing twice',
    mutate: ['main/core/upload/external/complete.ts'],
    // Not test/external/crash.test.ts: its kill and restart run in child processes, whose
    // coverage Stryker does not see, and it needs the built CLI.
    tests: [
      'main/core/upload/external/complete-share.test.ts',
      'main/core/upload/external/send-file.test.ts',
      'test/external/share-bytes.test.ts',
    ],
  },
  classify: {
    promise: 'nothing lost, nothing twice',
    mutate: ['main/core/upload/classify.ts'],
    tests: ['main/core/upload/classify.test.ts', 'main/core/upload/classify-answers.test.ts'],
  },
  'settings-tokens': {
    promise: 'no token outside the keychain',
    mutate: [
      'main/core/settings/tokens-in-file.ts',
      'main/core/settings/token-save.ts',
      'main/core/settings/workspace-tokens.ts',
    ],
    tests: [
      'main/core/settings/tokens-in-file.test.ts',
      'main/core/settings/token-save.test.ts',
      'test/settings/settings-file.test.ts',
      'test/settings/settings-service.test.ts',
      'test/settings/token-check.test.ts',
    ],
  },
  secrets: {
    promise: 'no token outside the keychain',
    mutate: ['main/core/secrets/*.ts', '!main/core/secrets/*.test.ts'],
    tests: [
      'main/core/secrets/keychain-store.test.ts',
      'main/core/secrets/keychain-store-states.test.ts',
      'main/core/secrets/keychain-errors.test.ts',
      'main/core/secrets/secret-service-state.test.ts',
    ],
  },
  redact: {
    promise: 'no token outside the keychain',
    mutate: ['main/core/log/redact.ts'],
    tests: [
      'main/core/log/redact.test.ts',
      'main/core/log/file-log.test.ts',
      'main/core/log/logged-parts.test.ts',
    ],
    staticMutants: true,
  },
  loopback: {
    promise: 'sign-in',
    mutate: ['main/core/auth/loopback.ts'],
    tests: ['main/core/auth/loopback.test.ts', 'test/auth/sign-in.test.ts'],
  },
  pkce: {
    promise: 'sign-in',
    mutate: ['main/core/auth/pkce.ts'],
    tests: ['main/core/auth/pkce.test.ts'],
  },
};
