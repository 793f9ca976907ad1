/** 24 URL-safe base64 characters (144 random bits): fixed length, so validators need no request. */
export const ID_BYTES = 18;
export const ID_LENGTH = 24;
export const ID_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
