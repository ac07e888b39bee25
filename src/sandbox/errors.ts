/** Errors a handler throws; the server turns them into the error body of the route's style. */
export type ErrorCode = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'method_not_allowed' | 'conflict' | 'payload_too_large' | 'internal';

const CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  500: 'internal',
};

export function codeFor(status: number): ErrorCode {
  return CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request');
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string = '',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (field: string, problem: string): HttpError => new HttpError(400, `${field}: ${problem}`, field);
export const notFound = (what: string, id: string): HttpError => new HttpError(404, `${what} ${JSON.stringify(id)} was not found`, what);
export const forbidden = (what: string): HttpError => new HttpError(403, `${what} belongs to another user`, what);
export const conflict = (field: string, problem: string): HttpError => new HttpError(409, `${field}: ${problem}`, field);
