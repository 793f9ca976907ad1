import { limitSubject, subjectGroups } from './client-ip';

describe('limitSubject', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:0:0:9', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (ip, subject) => {
    expect(limitSubject(ip)).toBe(subject);
  });
});

describe('subjectGroups', () => {
  it.each([
    ['203.0.113.9', ['203.0.113.9', '203.0.113.9', '203.0.113.0/24']],
    ['::ffff:203.0.113.9', ['203.0.113.9', '203.0.113.9', '203.0.113.0/24']],
    ['2001:db8:1:2a3b::1', ['2001:db8:1:2a3b::/64', '2001:db8:1:2a00::/56', '2001:db8:1:0::/48']],
    ['2001:db8:1:ff::9', ['2001:db8:1:ff::/64', '2001:db8:1:0::/56', '2001:db8:1:0::/48']],
    ['unknown', ['unknown', 'unknown', 'unknown']],
  ])('groups %s as %j, at three levels, finest first', (ip, groups) => {
    expect(subjectGroups(ip)).toEqual(groups);
  });

  it('starts with the subject the other limits count', () => {
    for (const ip of ['203.0.113.9', '2001:db8::1', '::1']) expect(subjectGroups(ip)[0]).toBe(limitSubject(ip));
  });
});
