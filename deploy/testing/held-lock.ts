/** Another run holding a deployment folder, for tests of what is refused meanwhile. */
import { withDeploymentLock } from '../deployment';

/**
 * Resolves once `command` holds `target`'s lock and its work has begun (the lock taken is not
 * enough: the holder's start, removing a failed run's leftovers, comes before its work); the
 * function it gives ends that work and waits until the lock is released.
 */
export async function holdDeploymentLock(target: string, command: string): Promise<() => Promise<void>> {
  let finish = () => undefined as void;
  let holding: Promise<void> = Promise.resolve();
  await new Promise<void>((begun, failed) => {
    holding = withDeploymentLock(
      target,
      command,
      () =>
        new Promise<void>((done) => {
          finish = done;
          begun();
        }),
    );
    holding.catch(failed);
  });
  return async () => {
    finish();
    await holding;
  };
}
