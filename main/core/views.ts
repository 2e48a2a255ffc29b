// What the service answers with that a module fills in: plain data in the IPC contract (api.ts),
// kept here below those modules so the contract imports none of them (ARCHITECTURE.md, "Layers").
import type { Conversation, UnlistedKind } from '../portable/conversation-types';
import type { Person } from '../portable/people-names';
import type { Protocol } from './model';

/** Which upload protocol a service offers (upload/protocol-probe.ts asks it). */
export interface ProtocolProbe {
  protocol: Protocol;
  /** False when the service could not tell (refused token, no answer): `protocol` is a guess. */
  checked: boolean;
  message: string;
  /** True when the service refused the token itself: adding the workspace with it is pointless. */
  refused?: boolean;
}

/** Why a path was refused: a stable code for scripts and a sentence for people. */
export interface Refusal {
  code: string;
  reason: string;
}

/** What one picked path would send, for the share sheet to show before Share. */
export interface PathDescription {
  /** The path as given. */
  path: string;
  kind: 'file' | 'folder';
  /** Files it would send: 1 for a file, the files inside for a folder, 0 when refused. */
  files: number;
  /** Their total size in bytes. */
  bytes: number;
  /** Set when nothing of this path would be sent (missing, empty folder, too large…). */
  refused?: Refusal;
  /** Files inside a folder that would be left out, with why (the rest is sent). */
  skipped?: ({ path: string } & Refusal)[];
  /** Photos and videos of it that hold a location, removed unless the share keeps their details. */
  located?: number;
}

/** Why a workspace's list could not be fetched. */
export interface ListProblem {
  code: string;
  message: string;
}

/** One workspace's conversations as cached (conversations/named-lists.ts). */
export interface ConversationsView {
  workspaceId: string;
  /** Undefined until a list was fetched once (or when the service cannot list). */
  conversations?: Conversation[];
  fetchedAt?: number;
  /** Kinds the list leaves out because the token lacks their scope (see unlistedMessage). */
  unlisted?: UnlistedKind[];
  /** How long the last fetch waited out the service's Retry-After before it was answered. */
  waitedMs?: number;
  refreshing: boolean;
  problem?: ListProblem;
  /** True only the first time this problem, or these unlisted kinds, are reported for this workspace. */
  announce: boolean;
}

/** What listConversations answers: a conversation list with the people beside it. */
export type DestinationsView = ConversationsView & {
  people?: Person[];
  /** Why there are no people (no users:read…): user IDs still work. */
  peopleProblem?: ListProblem;
  /** True only the first time the people problem is reported for this workspace. */
  announcePeople?: boolean;
};
