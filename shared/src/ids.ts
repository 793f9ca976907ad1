/**
 * The id format of gifts and redeem sessions: 24 URL-safe base64 characters, the encoding of
 * 18 random bytes (144 bits). Fixed length, so a route validator can reject a malformed id
 * before any remote or API request.
 */
export const ID_BYTES = 18;
export const ID_LENGTH = 24;
export const ID_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
