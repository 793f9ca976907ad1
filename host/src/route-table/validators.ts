/** Route parameter validators: run before any remote or API request is made. */
import { isValidId } from 'shared/ids';
import type { ValidatorName } from 'shared/remotes';

/**
 * `true` accepts; `false` is a plain failure (404 `Page Not Found: {path}`); an object fails with
 * its own status and message.
 */
export type RouteValidator = (
  params: Record<string, string | undefined>,
) => boolean | { statusCode: number; message: string };

export const giftIdValidator: RouteValidator = (params) => isValidId(params.giftId);

export const redeemIdValidator: RouteValidator = (params) => isValidId(params.redeemId);

/** The validators the registry's routes name (`shared/src/remotes.ts`), by name. */
export const VALIDATORS: Record<ValidatorName, RouteValidator> = {
  giftId: giftIdValidator,
  redeemId: redeemIdValidator,
};
