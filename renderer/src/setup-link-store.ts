// A team's set-up link handed to the app (main checked it; see main/core/setup-link-check.ts) may
// arrive before Settings is showing; it is kept here until the sign-in form takes it.
import { useEffect, useState } from 'preact/hooks';
import type { SetupLink } from '../../preload/contract';

let offered: SetupLink | null = null;
const listeners = new Set<(link: SetupLink | null) => void>();

export function offerSetupLink(link: SetupLink): void {
  offered = link;
  for (const listener of listeners) listener(link);
}

/** The link on offer, and a way to say it has been used (the form filled in from it). */
export function useOfferedSetupLink(): [SetupLink | null, () => void] {
  const [link, setLink] = useState(offered);
  useEffect(() => {
    listeners.add(setLink);
    setLink(offered);
    return () => {
      listeners.delete(setLink);
    };
  }, []);
  const taken = () => {
    offered = null;
    for (const listener of listeners) listener(null);
  };
  return [link, taken];
}
