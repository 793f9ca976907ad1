/** The email rule the redeem form and the API both apply. */
export const EMAIL_MAX_LENGTH = 254;

// A sane shape, not RFC 5322: one @, a dot in the domain, no spaces or angle brackets.
const EMAIL_SHAPE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

export type EmailCheck = { ok: true; email: string } | { ok: false; message: string };

export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (email === '') return { ok: false, message: 'Enter your email address.' };
  if (email.length > EMAIL_MAX_LENGTH)
    return { ok: false, message: `An email address has at most ${EMAIL_MAX_LENGTH} characters.` };
  if (!EMAIL_SHAPE.test(email)) return { ok: false, message: 'Enter an email address like name@example.com.' };
  return { ok: true, email };
}

/** "jane@example.com" → "j•••@example.com": enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
