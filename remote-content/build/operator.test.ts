/** @jest-environment node */
import { EnvError } from 'server/env';
import { fillOperator, OPERATOR_SETTINGS, readOperator } from './operator';

describe('readOperator', () => {
  it('has development defaults that say what they are', () => {
    const values = readOperator({});
    expect(values.operatorName).toMatch(/development/);
    expect(values.operatorAddress).toMatch(/development/);
    expect(values.contactEmail).toBe('gifts@example.com');
    expect(values.termsUpdated).toBe('24 November 2026');
  });

  it('reads every variable, dates written out whatever the time zone', () => {
    expect(
      readOperator({
        OPERATOR_NAME: '  Acme   Gifts Ltd ',
        OPERATOR_ADDRESS: '12 High Street, Leeds',
        OPERATOR_CONTACT_EMAIL: 'help@acme.test',
        TERMS_UPDATED: '2027-02-03',
        PRIVACY_UPDATED: '2027-12-31',
      }),
    ).toEqual({
      operatorName: 'Acme Gifts Ltd',
      operatorAddress: '12 High Street, Leeds',
      contactEmail: 'help@acme.test',
      termsUpdated: '3 February 2027',
      privacyUpdated: '31 December 2027',
    });
  });

  it('keeps a value text: Markdown signs are escaped', () => {
    expect(readOperator({ OPERATOR_NAME: '[Click](javascript:x) *Acme*' }).operatorName).toBe(
      '\\[Click\\]\\(javascript:x\\) \\*Acme\\*',
    );
  });

  it('names every wrong variable at once', () => {
    let error: unknown;
    try {
      readOperator({ OPERATOR_CONTACT_EMAIL: 'nobody', TERMS_UPDATED: '2027-02-30', PRIVACY_UPDATED: '3 Feb 2027' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    for (const variable of ['OPERATOR_CONTACT_EMAIL', 'TERMS_UPDATED', 'PRIVACY_UPDATED']) {
      expect(message).toContain(variable);
    }
  });
});

describe('fillOperator', () => {
  const values = readOperator({ OPERATOR_NAME: 'Acme' });

  it('replaces every {{setting}}', () => {
    expect(fillOperator('By {{operatorName}} ({{ contactEmail }}), {{operatorName}}.', values)).toBe(
      `By Acme (${OPERATOR_SETTINGS.contactEmail.fallback}), Acme.`,
    );
  });

  it('refuses a setting that does not exist, naming the known ones', () => {
    expect(() => fillOperator('{{operatorPhone}}', values)).toThrow(
      /unknown setting \{\{operatorPhone\}\}.*operatorName/,
    );
  });
});
