// The settings' defaults and bounds as plain numbers, without zod or the settings service: the
// CLI's `send --base-url` has no saved settings and needs them without loading either (schema.ts
// builds the settings' schema from the same constants).

/** The contract's largest file, unless a workspace sets its own ("Largest file: 1 GiB"). */
export const DEFAULT_MAX_FILE_BYTES = 1024 ** 3;

export const DEFAULT_CONCURRENCY = 3;
export const MAX_CONCURRENCY = 8;
