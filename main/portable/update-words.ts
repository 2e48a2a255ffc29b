// Words for updates that the tray menu (main) and Settings → About (renderer) both show.

export const restartToUpdateLabel = (version: string): string => `Restart to update to ${version}`;

/** "Restarting when the 3 uploads finish…": said while a restart waits for the queue. */
export function restartWaitMessage(running: number): string {
  if (running <= 0) return 'Restarting…';
  return running === 1
    ? 'Restarting when the upload finishes…'
    : `Restarting when the ${running} uploads finish…`;
}
