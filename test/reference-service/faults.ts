// Injected faults: what proxies, load balancers and flaky networks do to a request, on demand.
// A rule applies to the next `times` requests of one method and is then used up, so a test
// states exactly which attempt misbehaves.
import { z } from 'zod';

export type Fault =
  | { kind: 'reset-mid-body'; afterBytes?: number }
  | { kind: 'reset-after-body' }
  | { kind: 'status'; status: number; retryAfter?: number }
  | { kind: 'proxy-html'; status: number }
  | { kind: 'truncated-json' }
  | { kind: 'slow'; delayMs: number }
  /** Each answer held until `count` requests of this rule wait for theirs, then all of them
   * go together (or after `maxWaitMs`, default 10 s, whatever has come): a test of how many
   * requests a client keeps open at once then sees them all open whatever the machine's load,
   * where a fixed delay can end before the last one arrives. */
  | { kind: 'gather'; count: number; maxWaitMs?: number }
  | { kind: 'redirect'; location: string; status?: number }
  | { kind: 'error'; error: string; status?: number; record?: boolean }
  | { kind: 'ratelimit'; retryAfter: number }
  /** The usual answer, compressed although the client asked for identity (some proxies do). */
  | { kind: 'encoded-answer'; encoding: 'gzip' | 'deflate' | 'br' }
  /** An answer before the body is read (like a refused token), then the connection is
   * destroyed at once: the client's next write meets a reset while the answer waits unread. */
  | { kind: 'answer-then-close'; error: string };

export interface FaultRule {
  fault: Fault;
  /** 'files.upload' (default), 'files.getUploadURLExternal', 'upload' (the upload_url POST),
   * 'files.completeUploadExternal', 'auth.test', or any other API method name. */
  method?: string;
  /** How many matching requests it applies to; default 1. */
  times?: number;
}

const httpStatus = z.number().int().min(100).max(599);
const seconds = z.number().int().nonnegative();

const faultSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('reset-mid-body'),
      afterBytes: z.number().int().nonnegative().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('reset-after-body') }).strict(),
  z
    .object({ kind: z.literal('status'), status: httpStatus, retryAfter: seconds.optional() })
    .strict(),
  z.object({ kind: z.literal('proxy-html'), status: httpStatus }).strict(),
  z.object({ kind: z.literal('truncated-json') }).strict(),
  z.object({ kind: z.literal('slow'), delayMs: z.number().int().nonnegative() }).strict(),
  z
    .object({
      kind: z.literal('gather'),
      count: z.number().int().positive(),
      maxWaitMs: z.number().int().positive().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('redirect'),
      location: z.string().min(1),
      status: z.number().int().min(300).max(399).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('error'),
      error: z.string().min(1),
      status: httpStatus.optional(),
      record: z.boolean().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('ratelimit'), retryAfter: seconds }).strict(),
  z
    .object({ kind: z.literal('encoded-answer'), encoding: z.enum(['gzip', 'deflate', 'br']) })
    .strict(),
  z.object({ kind: z.literal('answer-then-close'), error: z.string().min(1) }).strict(),
]);

const faultRuleSchema = z
  .object({
    fault: faultSchema,
    method: z.string().min(1).optional(),
    times: z.number().int().positive().optional(),
  })
  .strict();

/** Validates a rule that came over HTTP or from a test; throws with a readable message. */
export function parseFaultRule(input: unknown): FaultRule {
  const parsed = faultRuleSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid fault rule: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Faults answered from the request line and headers alone: the body is never processed. */
export type EarlyFault = Extract<
  Fault,
  { kind: 'status' | 'redirect' | 'ratelimit' | 'answer-then-close' }
>;
/** Faults that change the answer of a request that was read and processed as usual. */
export type AfterFault = Extract<
  Fault,
  {
    kind:
      | 'reset-after-body'
      | 'proxy-html'
      | 'truncated-json'
      | 'slow'
      | 'gather'
      | 'error'
      | 'encoded-answer';
  }
>;

export function isEarlyFault(fault: Fault): fault is EarlyFault {
  return (
    fault.kind === 'status' ||
    fault.kind === 'redirect' ||
    fault.kind === 'ratelimit' ||
    fault.kind === 'answer-then-close'
  );
}

export class FaultBook {
  private rules: { fault: Fault; method: string; remaining: number }[] = [];

  add(rule: FaultRule): void {
    const checked = parseFaultRule(rule);
    this.rules.push({
      fault: checked.fault,
      method: checked.method ?? 'files.upload',
      remaining: checked.times ?? 1,
    });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if a rule matches; using it counts down the rule. */
  take(method: string): Fault | undefined {
    const rule = this.rules.find((r) => r.method === method && r.remaining > 0);
    if (!rule) return undefined;
    rule.remaining -= 1;
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return rule.fault;
  }
}
