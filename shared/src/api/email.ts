/** The email rule the redeem form and the API both apply. */
export const EMAIL_MAX_LENGTH = 254;

// A sane shape, not RFC 5322.
const EMAIL_SHAPE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

/**
 * Controls, invisible and bidirectional characters, lone surrogates: they make one address look
 * like another or break what stores it.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\p{Cs}/u;

export type EmailCheck = { ok: true; email: string } | { ok: false; message: string };

export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (email === '') return { ok: false, message: 'Enter your email address.' };
  if (email.length > EMAIL_MAX_LENGTH)
    return { ok: false, message: `An email address has at most ${EMAIL_MAX_LENGTH} characters.` };
  if (HIDDEN_CHARACTER.test(email))
    return { ok: false, message: 'Your email address contains invisible or control characters. Type it again.' };
  if (!EMAIL_SHAPE.test(email)) return { ok: false, message: 'Enter an email address like name@example.com.' };
  return { ok: true, email };
}

/** Enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
