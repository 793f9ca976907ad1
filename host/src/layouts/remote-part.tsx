import type { ReactNode } from 'react';
import { PART_ATTRIBUTE } from 'shared/telemetry-values';

/**
 * The element around a remote's part of the page, naming the remote: what its page paints or
 * shifts is attributed to it (telemetry/parts.ts). It takes no box (`display: contents`,
 * host.css), so the page lays out as without it. The app's router wraps each remote's page in it
 * (router/remote-page.tsx), and the host's server a prerendered page (host/server/page-frame.tsx),
 * so both give the same markup.
 */
export function RemotePart({ remote, children }: { remote: string | undefined; children: ReactNode }) {
  return <div {...{ [PART_ATTRIBUTE]: remote }}>{children}</div>;
}
