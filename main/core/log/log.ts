// What the core writes to: the app binds it to its log file in the OS's logs folder, the CLI to
// one beside its state (and stderr with --verbose), tests to a file in a temp folder. Lines are
// plain text for people; nothing secret is ever passed in (redact.ts is only a second net).

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
