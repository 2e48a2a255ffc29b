// What the picked paths would send, as the core describes them: the sheet counts files, leaves
// refused paths behind and asks about empty files before Share, not after a failure.
import { useEffect, useState } from 'preact/hooks';
import type { PathDescription } from '../../../preload/contract';
import { api } from '../bridge';

export type Descriptions = Map<string, PathDescription>;

/**
 * What the core says each path would send (size, a folder's files, or why it is refused),
 * asked again when the paths or the workspace (its size limit) change; null until it answers
 * for the paths shown now, and when it cannot answer (Share then checks, as before).
 */
export function useDescriptions(
  paths: string[],
  workspaceId: string | undefined,
): Descriptions | null {
  const [answer, setAnswer] = useState<{ key: string; map: Descriptions } | null>(null);
  const key = JSON.stringify([workspaceId ?? '', paths]);
  useEffect(() => {
    if (paths.length === 0) return;
    let current = true;
    api()
      .describePaths({ paths, ...(workspaceId ? { workspaceId } : {}) })
      .then(
        (list) => {
          if (current) setAnswer({ key, map: new Map(list.map((d) => [d.path, d])) });
        },
        () => undefined,
      );
    return () => {
      current = false;
    };
    // The key holds both inputs: a new array with the same paths asks nothing again.
  }, [key]);
  return answer?.key === key ? answer.map : null;
}

export interface Sendable {
  /** The paths Share sends: those the sheet shows as refused stay behind. */
  paths: string[];
  files: number;
  leftOut: number;
  /** Files of 0 bytes, which Slack refuses. */
  empties: string[];
  /** Photos and videos that hold a location (removed unless the share keeps their details). */
  located: number;
}

export function whatIsSent(paths: string[], described: Descriptions | null): Sendable {
  // Until the core has described every path, each counts as one file, as it was picked.
  const sendable = described ? paths.filter((p) => !described.get(p)?.refused) : paths;
  const files = described
    ? sendable.reduce((sum, p) => sum + (described.get(p)?.files ?? 0), 0)
    : paths.length;
  const empties = described
    ? sendable.filter((p) => {
        const about = described.get(p);
        return about?.kind === 'file' && about.bytes === 0;
      })
    : [];
  const located = described
    ? sendable.reduce((sum, p) => sum + (described.get(p)?.located ?? 0), 0)
    : 0;
  return { paths: sendable, files, leftOut: paths.length - sendable.length, empties, located };
}
