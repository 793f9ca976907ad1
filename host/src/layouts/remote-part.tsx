import type { ReactNode } from 'react';
import { PART_ATTRIBUTE } from 'shared/telemetry-values';

/** Names the remote for what it paints or shifts (telemetry/parts.ts); takes no box. */
export function RemotePart({ remote, children }: { remote: string | undefined; children: ReactNode }) {
  return <div {...{ [PART_ATTRIBUTE]: remote }}>{children}</div>;
}
