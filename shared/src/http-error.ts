/** The one error type that crosses every boundary: remote → host, API → browser. */
export interface HttpErrorShape {
  statusCode: number;
  statusMessage: string;
  message: string;
}

const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(statusCode: number): string {
  return REASON_PHRASES[statusCode] ?? (statusCode >= 500 ? 'Internal Server Error' : 'Error');
}

export class HttpError extends Error implements HttpErrorShape {
  readonly statusCode: number;
  readonly statusMessage: string;

  constructor(statusCode: number, message: string, statusMessage = reasonPhrase(statusCode)) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.statusMessage = statusMessage;
  }

  toJSON(): HttpErrorShape {
    return { statusCode: this.statusCode, statusMessage: this.statusMessage, message: this.message };
  }
}

/** Duck-typed so that an error thrown by another bundle's copy of this module still counts. */
export function isHttpError(value: unknown): value is HttpErrorShape {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<HttpErrorShape>;
  return (
    typeof candidate.statusCode === 'number' &&
    Number.isInteger(candidate.statusCode) &&
    candidate.statusCode >= 400 &&
    candidate.statusCode <= 599 &&
    typeof candidate.message === 'string'
  );
}

/** Any thrown value as a readable message. */
export function errorMessage(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.message;
  if (typeof value === 'object' && value !== null && 'message' in value) {
    const message = (value as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return 'Unknown error';
}

/** Any thrown value as an HttpError; values that carry no status become 500. */
export function toHttpError(value: unknown): HttpError {
  if (value instanceof HttpError) return value;
  if (isHttpError(value)) {
    return new HttpError(value.statusCode, value.message, value.statusMessage || undefined);
  }
  return new HttpError(500, errorMessage(value));
}
