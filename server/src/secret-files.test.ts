/** @jest-environment node */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envSchema, fromSecretFile, parseEnv, port, secretList, secretValue, text } from './env';
import { envProblemOf } from './testing/env-problem';

const SECRET = 'a-secret-of-at-least-thirty-two-characters-0123';
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'secret-files-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

describe('secretValue', () => {
  it('reads the variable itself, or nothing when neither form is set', () => {
    expect(secretValue({ TOKEN: SECRET }, 'TOKEN')).toBe(SECRET);
    expect(secretValue({}, 'TOKEN')).toBeUndefined();
    expect(secretValue({ TOKEN: '', TOKEN_FILE: '' }, 'TOKEN')).toBeUndefined();
  });

  it("reads <NAME>_FILE's file, without the newline an editor or echo ends it with", () => {
    expect(secretValue({ TOKEN_FILE: file('lf', `${SECRET}\n`) }, 'TOKEN')).toBe(SECRET);
    expect(secretValue({ TOKEN_FILE: file('crlf', `${SECRET}\r\n`) }, 'TOKEN')).toBe(SECRET);
    expect(secretValue({ TOKEN_FILE: file('bare', SECRET) }, 'TOKEN')).toBe(SECRET);
  });

  it('refuses both forms at once, naming both', () => {
    const message = envProblemOf(() => secretValue({ TOKEN: SECRET, TOKEN_FILE: file('both', SECRET) }, 'TOKEN'));
    expect(message).toBe('TOKEN and TOKEN_FILE are both set: set one of them');
  });

  it('refuses a file it cannot read, naming the variable and the path', () => {
    const missing = join(folder, 'missing');
    expect(envProblemOf(() => secretValue({ TOKEN_FILE: missing }, 'TOKEN'))).toBe(
      `TOKEN_FILE names a file that cannot be read: ${missing} (ENOENT)`,
    );
    expect(envProblemOf(() => secretValue({ TOKEN_FILE: folder }, 'TOKEN'))).toBe(
      `TOKEN_FILE names a file that cannot be read: ${folder} (EISDIR)`,
    );
  });

  it('refuses an empty file rather than run without the secret', () => {
    const empty = file('empty', '\n');
    expect(envProblemOf(() => secretValue({ TOKEN_FILE: empty }, 'TOKEN'))).toBe(
      `TOKEN_FILE names an empty file: ${empty}`,
    );
  });
});

describe('a secret variable in a schema', () => {
  const schema = envSchema({
    PAGE_TICKET_SECRETS: fromSecretFile(secretList(32)),
    LABEL: text,
  });

  it('is read from its file like from the variable, checked by the same reader', () => {
    const path = file('tickets', `${SECRET},${SECRET.toUpperCase()}\n`);
    expect(parseEnv(schema, { PAGE_TICKET_SECRETS_FILE: path })).toEqual({
      PAGE_TICKET_SECRETS: [SECRET, SECRET.toUpperCase()],
      LABEL: undefined,
    });
    const short = file('short', 'hunter2\n');
    const message = envProblemOf(() => parseEnv(schema, { PAGE_TICKET_SECRETS_FILE: short }));
    expect(message).toContain('PAGE_TICKET_SECRETS must be at least 32 characters (it has 7)');
    expect(message).not.toContain('hunter2');
  });

  it("reports a file's problem with every other problem of the environment, never the file's content", () => {
    const schemaOfTwo = envSchema({ A: fromSecretFile(text), B: fromSecretFile(text), PORT: port(80) });
    const message = envProblemOf(() =>
      parseEnv(schemaOfTwo, { A_FILE: join(folder, 'nowhere'), B: SECRET, B_FILE: file('b', SECRET), PORT: 'x' }),
    );
    expect(message).toBe(
      `A_FILE names a file that cannot be read: ${join(folder, 'nowhere')} (ENOENT)\n` +
        'B and B_FILE are both set: set one of them\n' +
        'PORT must be a port number between 1 and 65535, got "x"',
    );
    expect(message).not.toContain(SECRET);
  });

  it('leaves <NAME>_FILE of a variable that is no secret alone', () => {
    expect(parseEnv(schema, { LABEL: 'x', LABEL_FILE: join(folder, 'nowhere') }).LABEL).toBe('x');
  });
});
