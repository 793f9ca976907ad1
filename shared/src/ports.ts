/** Where each part runs by default; each can be moved with the environment variable named here. */
export const DEFAULT_PORTS = {
  host: { env: 'HOST_PORT', port: 3000 },
  gifts: { env: 'REMOTE_GIFTS_PORT', port: 3001 },
  redeem: { env: 'REMOTE_REDEEM_PORT', port: 3002 },
  content: { env: 'REMOTE_CONTENT_PORT', port: 3003 },
  api: { env: 'API_PORT', port: 3004 },
} as const;

export type PartName = keyof typeof DEFAULT_PORTS;
