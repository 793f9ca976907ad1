import { type App } from '../../app-context';
import { type AppConfig } from '../../config';
import { BuildRegistry } from './build-registry';
import { KnownRoutes } from './known-routes';
import { RouteLearner } from './route-learner';

export interface TelemetrySources {
  builds: BuildRegistry;
  routes: KnownRoutes;
}

/** Read before the app is ready (each part bounded by a timeout), then polled. */
export function installTelemetrySources(app: App, config: AppConfig): TelemetrySources {
  const routes = new KnownRoutes(Object.keys(config.builds.manifests));
  const learner: RouteLearner = new RouteLearner({
    ...config.builds,
    routes,
    canaryOf: (remote): string | undefined => builds.canaries().find(({ part }) => part === remote)?.id,
    log: app.log,
  });
  const builds: BuildRegistry = new BuildRegistry({
    ...config.builds,
    log: app.log,
    afterReadAll: () => learner.refresh(),
  });
  app.addHook('onReady', async () => builds.start());
  app.addHook('onClose', async () => builds.stop());
  return { builds, routes };
}
