/**
 * A remote's page whose code threw (while rendering, or as its module ran), on a build the
 * deployment no longer gives this visitor (an aborted canary, a build rolled back), is left for
 * the build it gives them now: the host's server is asked (version-check.ts), and when it names
 * another build the tab marks the running one broken and the page is loaded anew. Otherwise, or
 * when the page does not follow its builds through the host's server, the error page shows as
 * for any error.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppServices } from '../app-services';

/** Whether the error page waits for the answer (true) or shows (false); a full load follows an answer to leave. */
export function useLeaveThrowingBuild(error: unknown, remote: string | undefined, thrownByCode: boolean): boolean {
  const { versionCheck, remotes, fullLoad } = useAppServices();
  const { pathname, search, hash } = useLocation();
  const runs =
    thrownByCode && remote !== undefined && versionCheck.followsBuilds() ? remotes.buildOf(remote) : undefined;
  const asks = remote !== undefined && runs !== undefined;
  const [waiting, setWaiting] = useState(asks);
  // One question per error, however often strict mode runs the effect: an answer to leave is acted on once.
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
