/**
 * Every PromQL query of a Grafana dashboard, as Prometheus would receive it once Grafana has
 * filled in the variables: each panel's targets (rows' panels too) and each variable's
 * `label_values(…)`, which Grafana answers from the series its selector matches.
 */

/** Each dashboard variable matching everything, and Grafana's rate interval. */
const SUBSTITUTES: Record<string, string> = {
  __rate_interval: '1m',
  __interval: '15s',
  __range: '1h',
};
const ALL = '.*';

export interface DashboardQuery {
  /** The panel or variable it belongs to. */
  where: string;
  expr: string;
}

interface Panel {
  title?: string;
  targets?: { expr?: string; refId?: string }[];
  panels?: Panel[];
}

interface Dashboard {
  panels?: Panel[];
  templating?: { list?: { name: string; query?: string | { query?: string } }[] };
}

/** `$name` and `${name}` replaced: Grafana's interval variables by a duration, the dashboard's by `.*`. */
export function fillVariables(expr: string): string {
  return expr.replace(/\$\{?(\w+)\}?/g, (_whole, name: string) => SUBSTITUTES[name] ?? ALL);
}

function panelQueries(panels: readonly Panel[]): DashboardQuery[] {
  return panels.flatMap((panel) => [
    ...(panel.targets ?? [])
      .filter((target) => target.expr)
      .map((target) => ({ where: `panel "${panel.title}" ${target.refId}`, expr: fillVariables(target.expr ?? '') })),
    ...panelQueries(panel.panels ?? []),
  ]);
}

/** label_values(selector, label) becomes `group by (label) (selector)`: the values Grafana would list. */
function variableQuery(query: string): string {
  const match = /^label_values\((.+),\s*(\w+)\)$/.exec(query.trim());
  if (!match) throw new Error(`a variable query this test does not know: ${query}`);
  return `group by (${match[2]}) (${fillVariables(match[1] ?? '')})`;
}

export function dashboardQueries(dashboard: Dashboard): DashboardQuery[] {
  const variables = (dashboard.templating?.list ?? []).flatMap((variable) => {
    const query = typeof variable.query === 'string' ? variable.query : variable.query?.query;
    return query ? [{ where: `variable $${variable.name}`, expr: variableQuery(query) }] : [];
  });
  return [...panelQueries(dashboard.panels ?? []), ...variables];
}
