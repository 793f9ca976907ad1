/**
 * Who runs the site: the operator's name, postal address, contact address and the dates of the
 * legal texts, read from build variables and written into the pages' Markdown where it says
 * `{{operatorName}}` and so on (docs/decisions/0018-operator-details-are-build-variables.md).
 * Unset, each has a development default that says what it is.
 */
import { type Env, envSchema, parseEnv, type Reader, refusal } from 'server/env';

type Kind = 'text' | 'email' | 'date';

interface OperatorSetting {
  readonly variable: string;
  readonly kind: Kind;
  /** The development default. */
  readonly fallback: string;
}

export const OPERATOR_SETTINGS = {
  operatorName: { variable: 'OPERATOR_NAME', kind: 'text', fallback: 'Gift Box Demo Operator (development)' },
  operatorAddress: {
    variable: 'OPERATOR_ADDRESS',
    kind: 'text',
    fallback: '1 Demo Street, Demo Town (development address)',
  },
  contactEmail: { variable: 'OPERATOR_CONTACT_EMAIL', kind: 'email', fallback: 'gifts@example.com' },
  termsUpdated: { variable: 'TERMS_UPDATED', kind: 'date', fallback: '2026-11-24' },
  privacyUpdated: { variable: 'PRIVACY_UPDATED', kind: 'date', fallback: '2026-11-24' },
} as const satisfies Record<string, OperatorSetting>;

export type OperatorKey = keyof typeof OPERATOR_SETTINGS;
/** Each setting as it goes into Markdown: escaped text, a checked address, a written-out date. */
export type OperatorValues = Readonly<Record<OperatorKey, string>>;

const MAX_TEXT = 200;
/** Letters, digits and the few signs an e-mail address needs: safe inside a Markdown autolink. */
const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Markdown's punctuation: a value is text, never markup or a link. */
const MARKDOWN_SIGNS = /[\\`*_{}[\]()<>#+\-.!|~&]/g;

function readText(variable: string, raw: string): string {
  const value = raw.trim().replace(/\s+/g, ' ');
  if (!value || value.length > MAX_TEXT) {
    throw refusal(variable, `1 to ${MAX_TEXT} characters`, raw);
  }
  return value.replace(MARKDOWN_SIGNS, (sign) => `\\${sign}`);
}

function readEmail(variable: string, raw: string): string {
  const value = raw.trim();
  if (!EMAIL.test(value)) throw refusal(variable, 'an e-mail address such as gifts@example.com', raw);
  return value;
}

/** `2026-11-24` → `24 November 2026`, the same whatever the build machine's time zone. */
function readDate(variable: string, raw: string): string {
  const [, year, month, day] = ISO_DATE.exec(raw.trim()) ?? [];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (!year || date.getUTCDate() !== Number(day) || date.getUTCMonth() !== Number(month) - 1) {
    throw refusal(variable, 'a date written YYYY-MM-DD', raw);
  }
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

const READERS: Record<Kind, (variable: string, raw: string) => string> = {
  text: readText,
  email: readEmail,
  date: readDate,
};

const OPERATOR_ENV = envSchema(
  Object.fromEntries(
    Object.values(OPERATOR_SETTINGS).map((setting: OperatorSetting): [string, Reader<string>] => [
      setting.variable,
      (raw, name) => READERS[setting.kind](name, raw ?? setting.fallback),
    ]),
  ),
);

/** Every setting, from `env` or its default; one EnvError naming every variable that is wrong. */
export function readOperator(env: Env = process.env): OperatorValues {
  const values = parseEnv(OPERATOR_ENV, env);
  return Object.fromEntries(
    Object.entries(OPERATOR_SETTINGS).map(([key, setting]) => [key, values[setting.variable] as string]),
  ) as Record<OperatorKey, string>;
}

const TOKEN = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

function isOperatorKey(name: string): name is OperatorKey {
  return Object.hasOwn(OPERATOR_SETTINGS, name);
}

/** The Markdown with every `{{key}}` replaced; a key that is not a setting is an error. */
export function fillOperator(markdown: string, values: OperatorValues): string {
  return markdown.replace(TOKEN, (token, name: string) => {
    if (!isOperatorKey(name)) {
      const known = Object.keys(OPERATOR_SETTINGS).join(', ');
      throw new Error(`unknown setting ${token}: the page may use ${known}`);
    }
    return values[name];
  });
}
