import { readCommandLine, UsageError } from '../../deploy/command-line';
import { optionsOf } from './host-memory';

const OPTIONS = { server: { type: 'string' }, hosts: { type: 'string' } } as const;
const read = (argv: string[]) => optionsOf(readCommandLine(OPTIONS, argv));

describe('bench:host-memory command line', () => {
  it('asks at 10,000 hostnames of the built server unless told otherwise', () => {
    expect(read([])).toEqual({ server: expect.stringMatching(/host\/dist-server\/main\.js$/), hosts: 10_000 });
    expect(read(['--hosts', '50', '--server', '/tmp/main.js'])).toEqual({ server: '/tmp/main.js', hosts: 50 });
  });

  it('refuses a count that is not a number, an unknown option and a stray argument', () => {
    expect(() => read(['--hosts', 'many'])).toThrow(new UsageError('--hosts takes a count such as 10000, got "many"'));
    expect(() => read(['--host', '5'])).toThrow(new UsageError('unknown option --host'));
    expect(() => read(['extra'])).toThrow(new UsageError('unexpected argument extra'));
  });
});
