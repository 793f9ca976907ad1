import { AddressBudget } from './address-budget';

const at = (time: string) => new Date(`2030-03-15T10:${time}Z`);

function recordingLog() {
  const lines: string[] = [];
  return { lines, log: { warn: (_fields: object, message: string) => void lines.push(message) } };
}

/** An address in IPv6 network `net` (its /48 is 2001:db8:<net>), subnet `subnet` (the 4th group). */
const ipv6 = (net: number, subnet: number) => `2001:db8:${net.toString(16)}:${subnet.toString(16)}::1`;

describe('AddressBudget', () => {
  it('grants each client `limit` hits a minute, then says when the minute ends', () => {
    const budget = new AddressBudget({ limit: 2, name: 'test' });
    expect(budget.take('192.0.2.1', at('00:01'))).toEqual({ ok: true });
    expect(budget.take('192.0.2.1', at('00:02'))).toEqual({ ok: true });
    expect(budget.take('192.0.2.1', at('00:45'))).toEqual({ ok: false, retryAfterSeconds: 15 });
    expect(budget.take('192.0.2.2', at('00:46'))).toEqual({ ok: true });
    expect(budget.take('192.0.2.1', at('01:00'))).toEqual({ ok: true });
  });

  it('counts the addresses of one IPv6 /64 as one client', () => {
    const budget = new AddressBudget({ limit: 1, name: 'test' });
    expect(budget.take('2001:db8:1:2::1', at('00:01')).ok).toBe(true);
    expect(budget.take('2001:db8:1:2::ffff', at('00:01')).ok).toBe(false);
  });

  it('counts new clients by their network as the table fills, and keeps those it holds apart', () => {
    const { lines, log } = recordingLog();
    const budget = new AddressBudget({ limit: 3, name: 'test', maxSubjects: 8, log });
    for (let subnet = 0; subnet < 4; subnet += 1) expect(budget.take(ipv6(1, subnet), at('00:01')).ok).toBe(true);
    // Half full: one /56 (2001:db8:2:0 to :ff) is one new subject, with one budget.
    expect(budget.take(ipv6(2, 0x01), at('00:02')).ok).toBe(true);
    expect(budget.take(ipv6(2, 0x02), at('00:02')).ok).toBe(true);
    expect(budget.take(ipv6(2, 0x03), at('00:02')).ok).toBe(true);
    expect(budget.take(ipv6(2, 0x04), at('00:02')).ok).toBe(false);
    expect(budget.take(ipv6(2, 0x100), at('00:02')).ok).toBe(true);
    // Six subjects: three quarters full, so a new client's whole /48 shares one budget.
    expect(budget.take(ipv6(3, 0x100), at('00:03')).ok).toBe(true);
    expect(budget.take(ipv6(3, 0x200), at('00:03')).ok).toBe(true);
    expect(budget.take(ipv6(3, 0x300), at('00:03')).ok).toBe(true);
    expect(budget.take(ipv6(3, 0x400), at('00:03')).ok).toBe(false);
    // A client counted on its own before keeps its own budget.
    expect(budget.take(ipv6(1, 0), at('00:04')).ok).toBe(true);
    expect(lines).toEqual([
      'address budget: the table is half full: new IPv6 clients are counted by their /56',
      'address budget: the table is three quarters full: new clients are counted by their IPv6 /48 or IPv4 /24',
    ]);
  });

  it('counts new IPv4 clients by their /24 only from three quarters full', () => {
    const budget = new AddressBudget({ limit: 1, name: 'test', maxSubjects: 4 });
    expect(budget.take('192.0.2.1', at('00:01')).ok).toBe(true);
    expect(budget.take('192.0.2.2', at('00:01')).ok).toBe(true);
    expect(budget.take('192.0.2.3', at('00:01')).ok).toBe(true);
    expect(budget.take('198.51.100.1', at('00:01')).ok).toBe(true);
    expect(budget.take('198.51.100.2', at('00:01')).ok).toBe(false);
  });

  it('refuses only clients it does not hold once full, says so once, and starts afresh each minute', () => {
    const { lines, log } = recordingLog();
    const budget = new AddressBudget({ limit: 5, name: 'telemetry posts', maxSubjects: 2, log });
    expect(budget.take('192.0.2.1', at('00:01')).ok).toBe(true);
    expect(budget.take('198.51.100.1', at('00:01')).ok).toBe(true);
    expect(budget.take('203.0.113.1', at('00:01'))).toEqual({ ok: false, retryAfterSeconds: 59 });
    expect(budget.take('203.0.113.2', at('00:01')).ok).toBe(false);
    expect(budget.take('192.0.2.1', at('00:02')).ok).toBe(true);
    expect(lines.filter((line) => line.includes('full: clients it does not hold are refused'))).toHaveLength(1);
    expect(budget.take('203.0.113.1', at('01:00')).ok).toBe(true);
  });

  it('checks without taking: refuses a client that spent its budget, not one the full table has no room for', () => {
    const budget = new AddressBudget({ limit: 1, name: 'test', maxSubjects: 1 });
    expect(budget.check('192.0.2.1', at('00:01'))).toEqual({ ok: true });
    expect(budget.check('192.0.2.1', at('00:02'))).toEqual({ ok: true });
    expect(budget.take('192.0.2.1', at('00:03'))).toEqual({ ok: true });
    expect(budget.check('192.0.2.1', at('00:50'))).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(budget.check('198.51.100.1', at('00:50'))).toEqual({ ok: true });
    expect(budget.take('198.51.100.1', at('00:50'))).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(budget.check('192.0.2.1', at('01:00'))).toEqual({ ok: true });
  });
});
