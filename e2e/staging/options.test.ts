import { describe, expect, it } from '@jest/globals';
import { allPorts, DEFAULT_BASE_PORT, parseStagingArgs, stagingPorts } from './options';

const ROOT = '/repo';
const parse = (...argv: string[]) => parseStagingArgs(argv, '/repo/remote-gifts', ROOT);

describe('npm run staging command line', () => {
  it('starts in .staging/ at the repository root on ports from 4200 with two API processes by default', () => {
    const command = parse();
    expect(command).toEqual({ command: 'start', dir: '/repo/.staging', ports: stagingPorts(DEFAULT_BASE_PORT, 2) });
    if (command.command !== 'start') throw new Error('not start');
    expect(command.ports.nginx).toBe(4200);
    expect(command.ports.apis).toEqual([4210, 4211]);
    // Below the browser suite's first block (4300) and away from the developer's 3000-3004.
    expect(Math.max(...allPorts(command.ports))).toBeLessThan(4300);
  });

  it('moves every port with --base-port, takes --api processes, and a --dir from where the command was typed', () => {
    const command = parse('--base-port', '6720', '--api', '3', '--dir', '../tmp/stage');
    if (command.command !== 'start') throw new Error('not start');
    expect(command.dir).toBe('/repo/tmp/stage');
    expect(command.ports.nginx).toBe(6720);
    expect(command.ports.apis).toEqual([6730, 6731, 6732]);
    expect(command.ports.apiMetrics).toEqual([6750, 6751, 6752]);
    const ports = allPorts(command.ports);
    expect(new Set(ports).size).toBe(ports.length);
    expect(Math.max(...ports)).toBeLessThan(6770);
  });

  it('never gives two listeners one port, however many API processes', () => {
    const ports = allPorts(stagingPorts(5000, 20));
    expect(new Set(ports).size).toBe(ports.length);
    expect(ports).toHaveLength(8 + 2 * 20);
  });

  it('refuses what it cannot use, naming the option', () => {
    expect(() => parse('--api', '0')).toThrow('--api must be a whole number from 1 to 20, got "0"');
    expect(() => parse('--api', '21')).toThrow('--api must be a whole number from 1 to 20');
    expect(() => parse('--base-port', '80')).toThrow('--base-port must be a whole number from 1024');
    expect(() => parse('--base-port', '4200x')).toThrow('--base-port must be a whole number');
    expect(() => parse('--dir', '')).toThrow('--dir needs a folder');
    expect(() => parse('--url', 'http://x')).toThrow('--url is for sample');
    expect(() => parse('stop')).toThrow('unknown command stop');
    expect(() => parse('--force')).toThrow();
  });

  it('has a sample command that reads a running staging or a --url', () => {
    expect(parse('sample')).toEqual({ command: 'sample', dir: '/repo/.staging', url: undefined });
    expect(parse('sample', '--url', 'http://127.0.0.1:4200')).toMatchObject({ url: 'http://127.0.0.1:4200' });
    expect(() => parse('sample', '--api', '2')).toThrow('sample takes no --api');
    expect(parse('--help')).toEqual({ command: 'help' });
  });
});
