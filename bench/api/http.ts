/**
 * A small HTTP/1.1 JSON client on node:http with kept-alive connections, for setting up data and
 * for the paced load. POSTs always carry `content-type: application/json` and a JSON body; no
 * request carries an Origin header.
 */
import { Agent, request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  text: string;
  setCookie: string[];
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Sent as JSON; a POST without one sends `{}`. */
  body?: unknown;
  /** The `p_visitor` cookie's value (as the API set it) sent as the cookie. */
  visitor?: string;
  timeoutMs?: number;
  agent?: Agent;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export const sharedAgent = new Agent({ keepAlive: true, maxSockets: 32 });

export function newAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

export function send(baseUrl: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const method = options.method ?? 'GET';
  const payload = method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined;
  const headers: Record<string, string> = {};
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (options.visitor) headers.cookie = `p_visitor=${options.visitor}`;
  const url = new URL(path, baseUrl);
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers, agent: options.agent ?? sharedAgent, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const cookies = res.headers['set-cookie'] ?? [];
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), setCookie: cookies });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${method} ${path}: no answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The value of the `p_visitor` cookie an answer set, or an error naming the request. */
export function visitorCookieOf(reply: Reply, what: string): string {
  const pair = reply.setCookie
    .map((cookie) => cookie.split(';')[0] ?? '')
    .find((cookie) => cookie.startsWith('p_visitor='));
  if (pair === undefined) throw new Error(`${what}: answer ${reply.status} set no p_visitor cookie`);
  return pair.slice('p_visitor='.length);
}

/** The parsed JSON object of an answer, or an error naming the request. */
export function jsonObject(reply: Reply, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.text);
  } catch {
    throw new Error(`${what}: answer ${reply.status} is not JSON: ${reply.text.slice(0, 200)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${what}: answer ${reply.status} is not an object`);
  return parsed as Record<string, unknown>;
}

/** A string field of a JSON object, or an error naming it. */
export function stringField(object: Record<string, unknown>, key: string, what: string): string {
  const value = object[key];
  if (typeof value !== 'string')
    throw new Error(`${what}: no string "${key}" in ${JSON.stringify(object).slice(0, 200)}`);
  return value;
}

/** A record field of a JSON object, or an error naming it. */
export function objectField(object: Record<string, unknown>, key: string, what: string): Record<string, unknown> {
  const value = object[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${what}: no object "${key}"`);
  return value as Record<string, unknown>;
}
