import type { Server } from 'node:http';
import { createLogger } from '../log';
import { listenPart, type PartRoutes } from '../part-server';

/** A part's routes on a server of their own on loopback, as its main would serve them, for tests. */
export async function listenRoutes(routes: PartRoutes, buildFile = '/nonexistent/latest.json'): Promise<Server> {
  const log = createLogger('test', 'silent');
  return (await listenPart('test', 0, routes, { buildFile, listenHost: '127.0.0.1', log })).server;
}
