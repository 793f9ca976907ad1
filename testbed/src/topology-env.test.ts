import { REMOTE_NAMES, REMOTES } from 'shared/remotes';
import { OPEN_API_LIMITS, portsEnv, topologyEnv } from './topology-env';

test("each part's port goes in the variable its server reads, and only the parts given move", () => {
  expect(portsEnv({ host: 4300, gifts: 4301, api: 4304 })).toEqual({
    HOST_PORT: '4300',
    REMOTE_GIFTS_PORT: '4301',
    API_PORT: '4304',
  });
  expect(portsEnv({})).toEqual({});
});

test('a whole topology names every remote’s manifest, the origins, both secrets and the open limits', () => {
  const env = topologyEnv({
    ports: { host: 4300, api: 4304 },
    manifestUrl: (remote) => `http://127.0.0.1:8080/remotes/${remote}/mf-manifest.json`,
    hostOrigin: 'http://127.0.0.1:8080',
    apiBaseUrl: 'http://127.0.0.1:8080',
    secrets: { visitorCookie: 'cookie-secret', pageTicket: 'ticket-secret' },
    openLimits: true,
  });
  for (const remote of REMOTE_NAMES) {
    expect(env[REMOTES[remote].urlEnv]).toBe(`http://127.0.0.1:8080/remotes/${remote}/mf-manifest.json`);
  }
  expect(env).toMatchObject({
    HOST_PORT: '4300',
    API_PORT: '4304',
    HOST_ORIGIN: 'http://127.0.0.1:8080',
    API_BASE_URL: 'http://127.0.0.1:8080',
    VISITOR_COOKIE_SECRETS: 'cookie-secret',
    PAGE_TICKET_SECRETS: 'ticket-secret',
    ...OPEN_API_LIMITS,
  });
  expect(env.GAME_WIN_RATE).toBe('1');
});

test('what is not given stays unset, so each server keeps its own default', () => {
  const env = topologyEnv({ ports: { host: 4300 }, secrets: { pageTicket: 'ticket-secret' } });
  expect(env).toEqual({ HOST_PORT: '4300', PAGE_TICKET_SECRETS: 'ticket-secret' });
});
