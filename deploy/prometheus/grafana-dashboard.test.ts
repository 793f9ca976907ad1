/**
 * The dashboard as Grafana imports it: every query on the data source the operator picks at
 * import, the variables its panels filter on, a layout without overlaps. Its queries run against
 * a real Prometheus in monitoring.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface GridPos {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: GridPos;
  datasource?: { type: string; uid: string };
  targets?: { datasource?: { uid: string }; expr: string }[];
}

const dashboard = JSON.parse(readFileSync(join(__dirname, 'grafana-dashboard.json'), 'utf8')) as {
  __inputs: { name: string; type: string; pluginId: string }[];
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; datasource: { uid: string }; includeAll: boolean; allValue: string }[] };
};
const DATASOURCE = '${DS_PROMETHEUS}';

test('asks for its Prometheus data source at import, and every panel and query uses it', () => {
  expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', pluginId: 'prometheus' })]);
  for (const panel of dashboard.panels.filter(({ type }) => type !== 'row')) {
    expect([panel.title, panel.datasource]).toEqual([panel.title, { type: 'prometheus', uid: DATASOURCE }]);
    for (const target of panel.targets ?? []) expect(target.datasource?.uid).toBe(DATASOURCE);
  }
  for (const variable of dashboard.templating.list) expect(variable.datasource.uid).toBe(DATASOURCE);
});

test('filters by remote, build and route, all of them by default, and the panels about visitors use them', () => {
  expect(dashboard.templating.list.map(({ name, includeAll, allValue }) => [name, includeAll, allValue])).toEqual([
    ['remote', true, '.*'],
    ['build', true, '.*'],
    ['route', true, '.*'],
  ]);
  const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }) => expr));
  for (const variable of ['remote', 'build', 'route'])
    expect(exprs.filter((expr) => expr.includes(`${variable}=~"$${variable}"`)).length).toBeGreaterThan(5);
});

test('has a stable uid, unique panel ids, and panels that fit the 24-column grid without overlapping', () => {
  expect(dashboard.uid).toBe('gift-box');
  const ids = dashboard.panels.map(({ id }) => id);
  expect(new Set(ids).size).toBe(ids.length);
  const overlaps = (a: GridPos, b: GridPos) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  dashboard.panels.forEach((panel, index) => {
    expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    const clash = dashboard.panels.slice(index + 1).find((other) => overlaps(panel.gridPos, other.gridPos));
    expect([panel.title, clash?.title]).toEqual([panel.title, undefined]);
  });
});
