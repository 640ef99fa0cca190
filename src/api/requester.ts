/**
 * Sends requests through the transport with retries and decodes the answers with codecs.
 * Resource modules use only this: one resource, a page, every item, or nothing (DELETE).
 */
import type { Codec, InvalidItemHandler } from './codec.ts';
import { InvalidResponseError, type RequestLabel } from './errors.ts';
import { decodePage, walkPages, type Page } from './pagination.ts';
import { withRetries, type RetryPolicy } from './retry.ts';
import { parseJsonBody, type ApiRequest, type ApiResponse, type Transport } from './transport.ts';

export interface Logger {
  warn(message: string): void;
}

/** `limit`/`offset` of list endpoints. */
export interface ListParams {
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface RequesterOptions {
  transport: Transport;
  retry: RetryPolicy;
  logger: Logger;
  onInvalidItem?: InvalidItemHandler | undefined;
}

export class Requester {
  readonly #transport: Transport;
  readonly #retry: RetryPolicy;
  readonly #logger: Logger;
  readonly #onInvalidItem: InvalidItemHandler | undefined;

  constructor(options: RequesterOptions) {
    this.#transport = options.transport;
    this.#retry = options.retry;
    this.#onInvalidItem = options.onInvalidItem;
    const redact = options.transport.redact;
    // Every line this client logs passes the redactor, whatever its origin.
    this.#logger = { warn: (message) => options.logger.warn(redact(`porchlight api: ${message}`)) };
  }

  /** A `{ data: resource }` answer; a resource that does not parse fails the call. */
  async one<T>(codec: Codec<T>, request: ApiRequest): Promise<T> {
    const { body, label, status } = await this.#sendJson(request);
    const decoded = codec.decode(dataOf(body), ['data'], this.#invalidItemReporter(label));
    if (!decoded.ok) throw new InvalidResponseError(label, status, decoded.summary);
    return decoded.value;
  }

  /** Like `one`, but an empty body or one without `data` yields undefined. */
  async optionalOne<T>(codec: Codec<T>, request: ApiRequest): Promise<T | undefined> {
    const response = await this.#send(request);
    if (!response.text.trim()) return undefined;
    const label = this.#transport.label(request);
    const body = parseJsonBody(response.text, label, response.status);
    if (body === null || typeof body !== 'object' || !('data' in body) || body.data == null) return undefined;
    const decoded = codec.decode(body.data, ['data'], this.#invalidItemReporter(label));
    if (!decoded.ok) throw new InvalidResponseError(label, response.status, decoded.summary);
    return decoded.value;
  }

  /** For DELETE: any 2xx counts, whatever its body. */
  async none(request: ApiRequest): Promise<void> {
    await this.#send(request);
  }

  async page<T>(codec: Codec<T>, path: string, params: ListParams = {}): Promise<Page<T>> {
    return (await this.#fetchPage(codec, path, params)).page;
  }

  /** Every item of a list, page after page. */
  all<T>(codec: Codec<T>, path: string, pageSize: number): AsyncGenerator<T> {
    return walkPages((offset) => this.#fetchPage(codec, path, { limit: pageSize, offset }), (message) =>
      this.#logger.warn(`${codec.resource} list at GET ${this.#transport.label({ method: 'GET', path }).path}: ${message}`),
    );
  }

  async #fetchPage<T>(codec: Codec<T>, path: string, params: ListParams) {
    const request: ApiRequest = { method: 'GET', path, query: { limit: params.limit, offset: params.offset } };
    const { body, label, status } = await this.#sendJson(request);
    return decodePage(codec, body, { label, status, offset: params.offset ?? 0, onInvalidItem: this.#invalidItemReporter(label) });
  }

  async #sendJson(request: ApiRequest): Promise<{ body: unknown; label: RequestLabel; status: number }> {
    const response = await this.#send(request);
    const label = this.#transport.label(request);
    return { body: parseJsonBody(response.text, label, response.status), label, status: response.status };
  }

  #send(request: ApiRequest): Promise<ApiResponse> {
    return withRetries(request.method, () => this.#transport.send(request), this.#retry);
  }

  /** The caller's handler if given, else one warn line naming the request. */
  #invalidItemReporter(label: RequestLabel): InvalidItemHandler {
    const redact = this.#transport.redact;
    const handler = this.#onInvalidItem;
    if (handler) return (resource, index, summary) => handler(resource, index, redact(summary));
    return (resource, index, summary) =>
      this.#logger.warn(`dropped invalid ${resource} at index ${index} of ${label.method} ${label.path}: ${summary}`);
  }
}

function dataOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && 'data' in body ? body.data : undefined;
}
