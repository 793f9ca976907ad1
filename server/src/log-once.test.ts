import { boundedLogOnce } from './log-once';

it('writes each message once, and no more than its bound of distinct ones', () => {
  const written: string[] = [];
  const logOnce = boundedLogOnce((message) => written.push(message), 2);
  for (const message of ['a', 'a', 'b', 'a', 'c', 'b', 'c']) logOnce(message);
  expect(written).toEqual(['a', 'b']);
});
