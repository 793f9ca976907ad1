import { AddressBudget } from './address-budget';

const at = (time: string) => new Date(`2030-03-15T10:${time}Z`);

describe('AddressBudget', () => {
  it('grants each subject `limit` hits a minute, then says when the minute ends', () => {
    const budget = new AddressBudget(2);
    expect(budget.take('a', at('00:01'))).toEqual({ ok: true });
    expect(budget.take('a', at('00:02'))).toEqual({ ok: true });
    expect(budget.take('a', at('00:45'))).toEqual({ ok: false, retryAfterSeconds: 15 });
    expect(budget.take('b', at('00:46'))).toEqual({ ok: true });
    expect(budget.take('a', at('01:00'))).toEqual({ ok: true });
  });

  it('holds at most `maxSubjects` subjects, refusing new ones until the minute ends', () => {
    const budget = new AddressBudget(5, 2);
    expect(budget.take('a', at('00:01')).ok).toBe(true);
    expect(budget.take('b', at('00:01')).ok).toBe(true);
    expect(budget.take('c', at('00:01'))).toEqual({ ok: false, retryAfterSeconds: 59 });
    expect(budget.take('a', at('00:02')).ok).toBe(true);
    expect(budget.take('c', at('01:00')).ok).toBe(true);
  });

  it('checks without taking: refuses a subject that spent its budget, not one the full table has no room for', () => {
    const budget = new AddressBudget(1, 1);
    expect(budget.check('a', at('00:01'))).toEqual({ ok: true });
    expect(budget.check('a', at('00:02'))).toEqual({ ok: true });
    expect(budget.take('a', at('00:03'))).toEqual({ ok: true });
    expect(budget.check('a', at('00:50'))).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(budget.check('b', at('00:50'))).toEqual({ ok: true });
    expect(budget.take('b', at('00:50'))).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(budget.check('a', at('01:00'))).toEqual({ ok: true });
  });
});
