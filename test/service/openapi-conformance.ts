/**
 * Checks one request/response exchange against the OpenAPI document (docs/openapi.json, as
 * generated from the contract). The service tests' Client (helpers.ts) runs every exchange
 * through it, so each request the API test suite makes is also a conformance check:
 * - the operation is found by method and path template; its answered status must be documented;
 * - a JSON response body must match the documented schema (envelopes, resources, errors);
 * - a request the API accepted (2xx) must match the documented body and query parameters;
 * - a path the document does not know may only answer the documented error shape.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/contract/openapi.ts';

const DOCUMENT_ID = 'https://porchlight.invalid/openapi.json';
const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  spec: Json;
}

const operations: Operation[] = Object.entries(document.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, spec]) => ({
    method: method.toUpperCase(),
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    spec: spec as Json,
  })),
);

/** Operations answered with a 2xx at least once in this process, as `METHOD /template`. */
export const exercised = new Set<string>();
export const allOperations = (): string[] => operations.map((operation) => `${operation.method} ${operation.template}`);

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validate(pointer: string, value: unknown): string | null {
  let check = validators.get(pointer);
  if (!check) {
    check = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, check);
  }
  if (check(value)) return null;
  return ajv.errorsText(check.errors, { dataVar: 'body' });
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function resolveResponse(response: unknown): { pointer: string | null } {
  if (!isObject(response)) return { pointer: null };
  const reference = typeof response.$ref === 'string' ? response.$ref.slice(1) : null;
  return { pointer: reference };
}

export interface Exchange {
  method: string;
  url: string;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
}

/** Throws an Error naming the first mismatch. */
export function checkExchange(exchange: Exchange): void {
  const url = new URL(exchange.url);
  const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase();
  const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(url.pathname));
  const where = `${exchange.method} ${url.pathname} -> ${exchange.status}`;
  const fail = (message: string): never => {
    throw new Error(`OpenAPI conformance: ${where}: ${message}`);
  };
  if (!operation) {
    if (exchange.status < 400) fail('a success from an operation the document does not describe');
    if (exchange.responseBody !== undefined) {
      const problem = validate('/components/schemas/Error', exchange.responseBody);
      if (problem) fail(`error body does not match Error: ${problem}`);
    }
    return;
  }
  const operationPointer = `/paths/${escapePointer(operation.template)}/${operation.method.toLowerCase()}`;
  const responses = isObject(operation.spec.responses) ? operation.spec.responses : {};
  const documented = responses[String(exchange.status)];
  if (documented === undefined) fail(`status ${exchange.status} is not documented (documented: ${Object.keys(responses).join(', ')})`);
  const { pointer: referenced } = resolveResponse(documented);
  const responsePointer = referenced ?? `${operationPointer}/responses/${exchange.status}`;
  if (exchange.responseBody !== undefined) {
    const problem = validate(`${responsePointer}/content/application~1json/schema`, exchange.responseBody);
    if (problem) fail(`response body: ${problem}`);
  }
  if (exchange.status >= 200 && exchange.status < 300) {
    exercised.add(`${operation.method} ${operation.template}`);
    if (isObject(operation.spec.requestBody)) {
      const problem = validate(`${operationPointer}/requestBody/content/application~1json/schema`, exchange.requestBody);
      if (problem) fail(`request body: ${problem}`);
    }
    const parameters = Array.isArray(operation.spec.parameters) ? operation.spec.parameters : [];
    parameters.forEach((parameter: unknown, index) => {
      if (!isObject(parameter) || parameter.in !== 'query' || typeof parameter.name !== 'string') return;
      const raw = url.searchParams.get(parameter.name);
      if (raw === null) return;
      const value = /^-?\d+$/.test(raw) ? Number(raw) : raw;
      const problem = validate(`${operationPointer}/parameters/${index}/schema`, value);
      if (problem) fail(`query ${parameter.name}: ${problem}`);
    });
  }
}
