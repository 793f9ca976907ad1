import {
  assignedBuild,
  buildHistoryText,
  buildManifestUrl,
  canaryBucket,
  COHORT_VALUES,
  DEPLOYMENT_FILE,
  fallbackBuild,
  HISTORY_LENGTH,
  HOST_DEPLOYMENT_FILE,
  isBuildId,
  MAX_REVOKED,
  parseCohort,
  readBuildHistory,
  readDeploymentState,
  type DeploymentState,
} from './deployment';

describe('readDeploymentState', () => {
  it('reads a plain builds/latest.json as a stable build with no canary', () => {
    expect(readDeploymentState({ id: 'b1', timestamp: 5 })).toEqual({ id: 'b1', timestamp: 5 });
  });

  it('reads the previous build and a canary', () => {
    expect(
      readDeploymentState({ id: 'b2', timestamp: 5, previous: 'b1', canary: { id: 'b3', percent: 10, since: 7 } }),
    ).toEqual({ id: 'b2', timestamp: 5, previous: 'b1', canary: { id: 'b3', percent: 10, since: 7 } });
  });

  it("reads a canary's last judgement, and leaves out one that names no time", () => {
    const canary = { id: 'b3', percent: 10, since: 7 };
    const judged = { ...canary, judgedAt: 9, judgedBy: 'npm run release' };
    expect(readDeploymentState({ id: 'b2', timestamp: 5, canary: judged })?.canary).toEqual(judged);
    expect(
      readDeploymentState({ id: 'b2', timestamp: 5, canary: { ...canary, judgedAt: 9, judgedBy: 3 } })?.canary,
    ).toEqual({ ...canary, judgedAt: 9 });
    expect(readDeploymentState({ id: 'b2', timestamp: 5, canary: { ...canary, judgedAt: 'soon' } })?.canary).toEqual(
      canary,
    );
  });

  it('names no build for anything but an object with a build id', () => {
    for (const value of [null, 'b1', {}, { id: '' }, { id: '../x' }, { id: 'meta' }]) {
      expect(readDeploymentState(value)).toBeUndefined();
    }
  });

  it('leaves out a malformed canary or previous build, so everyone gets the stable build', () => {
    for (const canary of [
      { id: 'b3', percent: 101 },
      { id: 'b3', percent: -1 },
      { id: 'b3', percent: 12.5 },
      { id: 'b3', percent: '10' },
      { id: 'a/b', percent: 10 },
      { id: 'b2', percent: 10 },
      'b3',
    ]) {
      expect(readDeploymentState({ id: 'b2', timestamp: 1, canary, previous: 'b2' })).toEqual({
        id: 'b2',
        timestamp: 1,
      });
    }
  });

  it('reads the revoked builds, at most MAX_REVOKED, and leaves a revoked previous or canary out', () => {
    expect(
      readDeploymentState({
        id: 'b4',
        timestamp: 5,
        previous: 'b2',
        canary: { id: 'b3', percent: 10, since: 7 },
        revoked: ['b3', 'b2', 'b4', '../x', 7, 'b3'],
      }),
    ).toEqual({ id: 'b4', timestamp: 5, revoked: ['b3', 'b2'] });
    const many = Array.from({ length: MAX_REVOKED + 5 }, (_, n) => `r${n}`);
    expect(readDeploymentState({ id: 'b1', timestamp: 1, revoked: many })?.revoked).toEqual(many.slice(0, MAX_REVOKED));
    expect(readDeploymentState({ id: 'b1', timestamp: 1, revoked: 'b0' })).toEqual({ id: 'b1', timestamp: 1 });
  });
});

describe('parseCohort', () => {
  it('takes a plain number in range, nothing else', () => {
    expect(parseCohort('0')).toBe(0);
    expect(parseCohort(String(COHORT_VALUES - 1))).toBe(COHORT_VALUES - 1);
    for (const raw of [undefined, '', String(COHORT_VALUES), '-1', '1e3', ' 5', '5;', 'abc', '123456']) {
      expect(parseCohort(raw)).toBeUndefined();
    }
  });
});

describe('assignedBuild', () => {
  const state = (percent: number): DeploymentState => ({
    id: 'stable',
    timestamp: 1,
    previous: 'old',
    canary: { id: 'canary', percent, since: 1 },
  });
  const cohorts = Array.from({ length: COHORT_VALUES }, (_, cohort) => cohort);
  const share = (percent: number) =>
    cohorts.filter((cohort) => assignedBuild(state(percent), cohort, 'gifts').channel === 'canary').length /
    COHORT_VALUES;

  it('gives the canary to about its percent of cohorts, none at 0 and all at 100', () => {
    expect(share(0)).toBe(0);
    expect(share(100)).toBe(1);
    expect(share(10)).toBeGreaterThan(0.08);
    expect(share(10)).toBeLessThan(0.12);
    expect(share(50)).toBeGreaterThan(0.47);
    expect(share(50)).toBeLessThan(0.53);
  });

  it('keeps every canary visitor when the percent goes up', () => {
    const at10 = cohorts.filter((cohort) => assignedBuild(state(10), cohort, 'gifts').channel === 'canary');
    expect(at10.every((cohort) => assignedBuild(state(50), cohort, 'gifts').channel === 'canary')).toBe(true);
  });

  it('tries a different share of visitors for another canary or another remote', () => {
    const bucketsOf = (remote: string, id: string) => cohorts.slice(0, 200).map((c) => canaryBucket(c, remote, id));
    expect(bucketsOf('gifts', 'canary')).not.toEqual(bucketsOf('gifts', 'other'));
    expect(bucketsOf('gifts', 'canary')).not.toEqual(bucketsOf('redeem', 'canary'));
  });

  it('gives a visitor without a cohort, or a deployment without a canary, the stable build', () => {
    expect(assignedBuild(state(100), undefined, 'gifts')).toEqual({ id: 'stable', channel: 'stable' });
    expect(assignedBuild({ id: 'stable', timestamp: 1 }, 3, 'gifts')).toEqual({ id: 'stable', channel: 'stable' });
  });

  it('falls back from the canary to the stable build, and from the stable build to the previous one', () => {
    expect(fallbackBuild(state(50), { id: 'canary', channel: 'canary' })).toBe('stable');
    expect(fallbackBuild(state(50), { id: 'stable', channel: 'stable' })).toBe('old');
    expect(fallbackBuild({ id: 'stable', timestamp: 1 }, { id: 'stable', channel: 'stable' })).toBeUndefined();
  });
});

it("names a build's own copy beside the remote's manifest", () => {
  expect(buildManifestUrl('https://cdn.example/remotes/gifts/mf-manifest.json', 'b-1.2')).toBe(
    'https://cdn.example/remotes/gifts/builds/b-1.2/mf-manifest.json',
  );
});

describe('the deployment files', () => {
  it('are a remote’s builds/latest.json and the host’s _app/builds/latest.json', () => {
    expect(DEPLOYMENT_FILE).toBe('builds/latest.json');
    expect(HOST_DEPLOYMENT_FILE).toBe('_app/builds/latest.json');
  });

  it('take no build id: a build cannot be called after a file its builds folder holds', () => {
    for (const name of ['meta', 'latest.json', 'history.json']) expect(isBuildId(name)).toBe(false);
    for (const name of ['b1', 'v2.0.1_rc-3', 'a'.repeat(128)]) expect(isBuildId(name)).toBe(true);
    for (const name of ['', '.hidden', 'a/b', '../b1', 'a'.repeat(129), 7]) expect(isBuildId(name)).toBe(false);
  });
});

describe('the build history', () => {
  it('reads the ids a history.json names, newest first, leaving out what is not text', () => {
    expect(readBuildHistory({ ids: ['b3', 4, 'b2', null] })).toEqual(['b3', 'b2']);
  });

  it('is no history when its ids are not a list', () => {
    expect(readBuildHistory({ ids: 'b1' })).toBeUndefined();
    expect(readBuildHistory(null)).toBeUndefined();
    expect(readBuildHistory('not json')).toBeUndefined();
  });

  it('puts the build made current first, once, and keeps the newest HISTORY_LENGTH', () => {
    const earlier = Array.from({ length: HISTORY_LENGTH }, (_, n) => `b${HISTORY_LENGTH - n}`);
    const written = readBuildHistory(JSON.parse(buildHistoryText('b5', earlier)));
    expect(written).toHaveLength(HISTORY_LENGTH);
    expect(written?.slice(0, 3)).toEqual(['b5', `b${HISTORY_LENGTH}`, `b${HISTORY_LENGTH - 1}`]);
    expect(written?.filter((id) => id === 'b5')).toHaveLength(1);
    expect(buildHistoryText('b1', [])).toBe('{"ids":["b1"]}\n');
  });
});
