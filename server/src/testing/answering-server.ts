import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers one path; a path with none set is answered 404. */
export type Answer = (res: ServerResponse) => void;

export interface AnsweringServer {
  /** `http://127.0.0.1:<port>`, for the URLs a test fetches. */
  base: string;
  /** The answer of each path, which a test sets (and changes) as it goes. */
  answers: Map<string, Answer>;
  /** Stops listening and drops open connections, a slow answer's among them. */
  close(): Promise<void>;
}

/** A server on loopback that answers each path as the test says, for tests of what fetches over HTTP. */
export async function listenAnswering(): Promise<AnsweringServer> {
  const answers = new Map<string, Answer>();
  const server: Server = createServer((req, res) =>
    (answers.get(req.url ?? '') ?? ((unknown) => unknown.writeHead(404).end()))(res),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
