/**
 * A remote's page that threw on a build the deployment no longer gives this visitor (an aborted
 * canary, a rollback) is left for the one it gives now, with a full load; else the error page.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppServices } from '../app-services';

/** True while the error page waits for the answer. */
export function useLeaveThrowingBuild(error: unknown, remote: string | undefined, thrownByCode: boolean): boolean {
  const { versionCheck, remotes, fullLoad } = useAppServices();
  const { pathname, search, hash } = useLocation();
  const runs =
    thrownByCode && remote !== undefined && versionCheck.followsBuilds() ? remotes.buildOf(remote) : undefined;
  const asks = remote !== undefined && runs !== undefined;
  const [waiting, setWaiting] = useState(asks);
  // One question per error, however often strict mode runs the effect.
  const asked = useRef<{ error: unknown; leave: Promise<boolean> } | undefined>(undefined);

  useEffect(() => {
    if (remote === undefined || runs === undefined) return;
    if (asked.current?.error !== error) asked.current = { error, leave: versionCheck.leaveThrowingBuild(remote, runs) };
    let current = true;
    void asked.current?.leave.then((leave) => {
      if (!current) return;
      if (leave) fullLoad(`${pathname}${search}${hash}`);
      else setWaiting(false);
    });
    return () => {
      current = false;
    };
  }, [error, remote, runs, versionCheck, fullLoad, pathname, search, hash]);

  return asks && waiting;
}
