import { describe, expect, it } from '@jest/globals';
import { describeStaging, remoteCommands, sampleCommand, type StagingInfo } from './hints';
import { samplePaths } from './sample';
import { REMOTES } from 'shared/remotes';

const GIFT = 'G1ftG1ftG1ftG1ftG1ftG1ft';
const REDEEM = 'R3dmR3dmR3dmR3dmR3dmR3dm';
const IDS = { giftId: GIFT, redeemId: REDEEM };

const INFO: StagingInfo = {
  dir: '/repo/.staging',
  origin: 'http://127.0.0.1:4200',
  hostServer: 'http://127.0.0.1:4201',
  apis: ['http://127.0.0.1:4210', 'http://127.0.0.1:4211'],
  prometheus: 'http://127.0.0.1:4204',
  database: 'postgres://postgres@127.0.0.1:4207/postgres',
  remotes: {
    gifts: '/repo/.staging/remotes/gifts',
    redeem: '/repo/.staging/remotes/redeem',
    content: '/repo/.staging/remotes/content',
  },
  previewKeys: {
    gifts: '/repo/.staging/secrets/preview-key-gifts',
    redeem: '/repo/.staging/secrets/preview-key-redeem',
    content: '/repo/.staging/secrets/preview-key-content',
  },
  logs: '/repo/.staging/logs',
};

describe('what staging prints', () => {
  it("fills each route with parameters of a remote with the sample's ids", () => {
    expect(samplePaths(REMOTES.gifts, IDS)).toEqual([`/gifts/${GIFT}`]);
    expect(samplePaths(REMOTES.redeem, IDS)).toEqual([`/redeem/${REDEEM}`]);
    expect(samplePaths(REMOTES.content, IDS)).toEqual([]);
    expect(() => samplePaths(REMOTES.redeem, { giftId: GIFT })).toThrow('the sample has no redeemId');
  });

  it("gives the gate and the release the remote's --path, the staging's host and Prometheus, and the preview key's file", () => {
    const lines = remoteCommands(INFO, 'gifts', IDS, '/repo').join('\n');
    const key = 'PREVIEW_KEY="$(cat .staging/secrets/preview-key-gifts)"';
    expect(lines).toContain(
      `${key} npm run gate -w remote-gifts -- .staging/remotes/gifts <build id> --host http://127.0.0.1:4200 --path /gifts/${GIFT}`,
    );
    expect(lines).toContain(
      `${key} npm run release -w remote-gifts -- .staging/remotes/gifts --host http://127.0.0.1:4200 --prometheus http://127.0.0.1:4204 --path /gifts/${GIFT}`,
    );
    expect(lines).toContain('npm run deploy -w remote-gifts -- .staging/remotes/gifts --stage');
    expect(lines).toContain('judged by nobody');
    expect(remoteCommands(INFO, 'content', IDS, '/repo').join('\n')).not.toContain('--path');
  });

  it('names folders in full when the command is typed elsewhere, and --dir for a folder not the default', () => {
    expect(remoteCommands(INFO, 'redeem', IDS, '/elsewhere').join('\n')).toContain(
      'npm run gate -w remote-redeem -- /repo/.staging/remotes/redeem',
    );
    expect(sampleCommand(INFO, '/repo')).toBe('npm run staging -- sample');
    expect(sampleCommand({ ...INFO, dir: '/repo/stage-2' }, '/repo')).toBe('npm run staging -- sample --dir stage-2');
  });

  it('prints every URL, the sample paths and the traffic command', () => {
    const text = describeStaging(INFO, IDS, '/repo').join('\n');
    for (const url of [
      'http://127.0.0.1:4200',
      'http://127.0.0.1:4201/healthz',
      'http://127.0.0.1:4210/api/health/ready',
      'http://127.0.0.1:4211/api/health/ready',
      'http://127.0.0.1:4204',
      'postgres://postgres@127.0.0.1:4207/postgres',
    ])
      expect(text).toContain(url);
    expect(text).toContain(`--path /gifts/${GIFT}`);
    expect(text).toContain(`--path /redeem/${REDEEM}`);
    expect(text).toContain('npm run traffic -- --url http://127.0.0.1:4200');
  });
});
