import { takePageTicket } from './page-ticket';

afterEach(() => {
  document.cookie = 'gb_ticket=; Path=/; Max-Age=0';
  document.cookie = 'other=; Path=/; Max-Age=0';
});

describe("the page's telemetry ticket", () => {
  it('is taken from the cookie the host’s server set, which is then removed, the others kept', () => {
    document.cookie = 'other=1; Path=/';
    document.cookie = 'gb_ticket=t1.abc.def; Path=/';
    const ticket = takePageTicket();
    expect(ticket.current()).toBe('t1.abc.def');
    expect(document.cookie).toBe('other=1');
  });

  it('is none without the cookie, and a newer one replaces it', () => {
    const ticket = takePageTicket();
    expect(ticket.current()).toBeUndefined();
    ticket.replace('t1.newer.sig');
    expect(ticket.current()).toBe('t1.newer.sig');
  });
});
