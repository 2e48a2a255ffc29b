// What to say or log about a thrown value: its message only, never the object itself (an error
// from a request may hold the request, and with it a token).

/** The message of an Error, or the thrown value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
