/**
 * What a worker restarts when it moves on to the next test file: exactly the servers that differ
 * from what the file asked for, so that nothing the previous file changed is left and nothing
 * else is restarted.
 */
import { describe, expect, it } from '@jest/globals';
import { planServerSet, type ServerState } from './server-plan';
import { SERVER_NAMES } from './test-env';

const defaults: ServerState[] = SERVER_NAMES.map((name) => ({ name, env: {} }));

describe('planServerSet', () => {
  it('starts every server in a new worker', () => {
    expect(planServerSet([], {})).toEqual({ stop: [], start: [...SERVER_NAMES] });
  });

  it('keeps servers that run as the file asks, however the options are written', () => {
    expect(planServerSet(defaults, {})).toEqual({ stop: [], start: [] });
    expect(planServerSet(defaults, { servers: {} })).toEqual({ stop: [], start: [] });
    expect(planServerSet(defaults, { servers: { host: { env: {} } } })).toEqual({ stop: [], start: [] });
  });

  it('restarts a server the previous file left with other settings, and only it', () => {
    const running = defaults.map((server) =>
      server.name === 'api' ? { ...server, env: { PLAYS_PER_VISITOR_PER_DAY: '1' } } : server,
    );
    expect(planServerSet(running, {})).toEqual({ stop: ['api'], start: ['api'] });
  });

  it('restarts a server the previous file left running from a copy of its build', () => {
    const running = defaults.map((server) =>
      server.name === 'host' ? { ...server, packageDir: '/tmp/copy' } : server,
    );
    expect(planServerSet(running, {})).toEqual({ stop: ['host'], start: ['host'] });
  });

  it('starts a server the previous file left stopped', () => {
    const running = defaults.filter((server) => server.name !== 'content');
    expect(planServerSet(running, {})).toEqual({ stop: [], start: ['content'] });
  });

  it('gives a server the settings the file asks for', () => {
    const options = { servers: { host: { env: { MIXPANEL_TOKEN: 'token' } } } };
    expect(planServerSet(defaults, options)).toEqual({ stop: ['host'], start: ['host'] });
    const asked = defaults.map((server) =>
      server.name === 'host' ? { ...server, env: { MIXPANEL_TOKEN: 'token' } } : server,
    );
    expect(planServerSet(asked, options)).toEqual({ stop: [], start: [] });
    expect(planServerSet(asked, {})).toEqual({ stop: ['host'], start: ['host'] });
  });

  it('tells a variable removed from a variable not named', () => {
    const options = { servers: { api: { env: { API_BASE_URL: undefined } } } };
    expect(planServerSet(defaults, options)).toEqual({ stop: ['api'], start: ['api'] });
  });

  it('stops what a file does not want and starts it again for the next', () => {
    expect(planServerSet(defaults, { only: [] })).toEqual({ stop: [...SERVER_NAMES], start: [] });
    const subset = planServerSet(defaults, { only: ['host', 'gifts', 'redeem', 'content'] });
    expect(subset).toEqual({ stop: ['api'], start: [] });
    expect(planServerSet([], {})).toEqual({ stop: [], start: [...SERVER_NAMES] });
  });

  it('leaves the servers a file does not use idle when it asks, so the next file starts none', () => {
    expect(planServerSet(defaults, { only: [], leaveIdle: true })).toEqual({ stop: [], start: [] });
    expect(planServerSet(defaults, {})).toEqual({ stop: [], start: [] });
  });

  it('restarts, after such a file, only what it left running with other settings than the next asks', () => {
    const running = defaults.map((server) =>
      server.name === 'api' ? { ...server, env: { PLAYS_PER_VISITOR_PER_DAY: '1' } } : server,
    );
    expect(planServerSet(running, { only: [], leaveIdle: true })).toEqual({ stop: [], start: [] });
    expect(planServerSet(running, {})).toEqual({ stop: ['api'], start: ['api'] });
    const subset = defaults.filter((server) => server.name !== 'content');
    expect(planServerSet(subset, { only: ['host'], leaveIdle: true })).toEqual({ stop: [], start: [] });
    expect(planServerSet(subset, {})).toEqual({ stop: [], start: ['content'] });
  });
});
