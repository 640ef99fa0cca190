import { describe, expect, it } from 'vitest';
import type { Rule } from '../../../src/contract/monitor.ts';
import { evaluateHttpResponse, evaluateRules, type RuleInput } from '../../../src/service/checks/evaluate-rules.ts';

const response: RuleInput = {
  statusCode: 200,
  latencyMs: 120,
  headers: { 'content-type': 'application/json', 'x-served-by': 'edge-1', 'set-cookie': ['a=1', 'b=2'] },
  body: '{"status":"operational"}',
};

/** [rule, expected failure message or null when the rule passes] against `response` above. */
const table: Array<[Rule, string | null]> = [
  [{ type: 'status_code', operator: 'eq', value: 200 }, null],
  [{ type: 'status_code', operator: 'eq', value: 204 }, 'status code 200 is not eq 204'],
  [{ type: 'status_code', operator: 'ne', value: 500 }, null],
  [{ type: 'status_code', operator: 'ne', value: 200 }, 'status code 200 is not ne 200'],
  [{ type: 'status_code', operator: 'lt', value: 300 }, null],
  [{ type: 'status_code', operator: 'lt', value: 200 }, 'status code 200 is not lt 200'],
  [{ type: 'status_code', operator: 'lte', value: 200 }, null],
  [{ type: 'status_code', operator: 'lte', value: 199 }, 'status code 200 is not lte 199'],
  [{ type: 'status_code', operator: 'gt', value: 199 }, null],
  [{ type: 'status_code', operator: 'gt', value: 200 }, 'status code 200 is not gt 200'],
  [{ type: 'status_code', operator: 'gte', value: 200 }, null],
  [{ type: 'status_code', operator: 'gte', value: 201 }, 'status code 200 is not gte 201'],
  [{ type: 'response_time', operator: 'lt', value: 121 }, null],
  [{ type: 'response_time', operator: 'lt', value: 120 }, 'response time 120 ms is not lt 120 ms'],
  [{ type: 'response_time', operator: 'lte', value: 120 }, null],
  [{ type: 'response_time', operator: 'lte', value: 119 }, 'response time 120 ms is not lte 119 ms'],
  [{ type: 'body', operator: 'contains', value: 'operational' }, null],
  [{ type: 'body', operator: 'contains', value: 'degraded' }, 'body does not contain "degraded"'],
  [{ type: 'body', operator: 'not_contains', value: 'error' }, null],
  [{ type: 'body', operator: 'not_contains', value: 'status' }, 'body contains "status"'],
  [{ type: 'body', operator: 'eq', value: '{"status":"operational"}' }, null],
  [{ type: 'body', operator: 'eq', value: 'ok' }, 'body is not eq "ok"'],
  [{ type: 'body', operator: 'ne', value: 'ok' }, null],
  [{ type: 'body', operator: 'ne', value: '{"status":"operational"}' }, 'body is eq "{\\"status\\":\\"operational\\"}"'],
  [{ type: 'header', name: 'Content-Type', operator: 'exists' }, null],
  [{ type: 'header', name: 'x-request-id', operator: 'exists' }, 'header "x-request-id" is missing'],
  [{ type: 'header', name: 'CONTENT-TYPE', operator: 'contains', value: 'json' }, null],
  [{ type: 'header', name: 'content-type', operator: 'contains', value: 'html' }, 'header "content-type" does not contain "html"'],
  [{ type: 'header', name: 'x-request-id', operator: 'contains', value: 'a' }, 'header "x-request-id" is missing'],
  [{ type: 'header', name: 'X-Served-By', operator: 'eq', value: 'edge-1' }, null],
  [{ type: 'header', name: 'x-served-by', operator: 'eq', value: 'edge-2' }, 'header "x-served-by" is not eq "edge-2"'],
  [{ type: 'header', name: 'x-served-by', operator: 'ne', value: 'edge-2' }, null],
  [{ type: 'header', name: 'x-served-by', operator: 'ne', value: 'edge-1' }, 'header "x-served-by" is eq "edge-1"'],
  [{ type: 'header', name: 'x-request-id', operator: 'ne', value: 'x' }, null],
  [{ type: 'header', name: 'set-cookie', operator: 'eq', value: 'a=1, b=2' }, null],
  [{ type: 'header', name: 'x-served-by', operator: 'contains' }, 'header "x-served-by" rule "contains" has no value to compare'],
];

describe('evaluateRules', () => {
  it.each(table)('%j -> %s', (rule, failure) => {
    const result = evaluateRules([rule], response);
    expect(result).toEqual(failure === null ? { passed: true, failures: [] } : { passed: false, failures: [failure] });
  });

  it('passes with no rules and reports every failing rule in order', () => {
    expect(evaluateRules([], response)).toEqual({ passed: true, failures: [] });
    const result = evaluateRules(
      [
        { type: 'status_code', operator: 'eq', value: 201 },
        { type: 'body', operator: 'contains', value: 'operational' },
        { type: 'response_time', operator: 'lt', value: 100 },
      ],
      response,
    );
    expect(result).toEqual({
      passed: false,
      failures: ['status code 200 is not eq 201', 'response time 120 ms is not lt 100 ms'],
    });
  });

  it('cuts long rule values in messages', () => {
    const value = 'x'.repeat(500);
    const [failure] = evaluateRules([{ type: 'body', operator: 'contains', value }], response).failures;
    expect(failure).toBe(`body does not contain "${'x'.repeat(80)}..."`);
  });

  it('does not modify its inputs', () => {
    const rules: Rule[] = [{ type: 'body', operator: 'contains', value: 'x' }];
    const input = structuredClone(response);
    evaluateRules(rules, input);
    expect(input).toEqual(response);
    expect(rules).toEqual([{ type: 'body', operator: 'contains', value: 'x' }]);
  });
});

describe('evaluateHttpResponse', () => {
  const at = (statusCode: number): RuleInput => ({ ...response, statusCode });

  it.each([200, 204, 301, 304, 399])('accepts %i by default', (code) => {
    expect(evaluateHttpResponse([], at(code)).passed).toBe(true);
  });

  it.each([100, 400, 404, 500, 503])('rejects %i by default', (code) => {
    expect(evaluateHttpResponse([], at(code))).toEqual({ passed: false, failures: [`status code ${code} is not 2xx or 3xx`] });
  });

  it('keeps the default status check when only other rules are given', () => {
    const result = evaluateHttpResponse([{ type: 'body', operator: 'contains', value: 'nope' }], at(503));
    expect(result.failures).toEqual(['status code 503 is not 2xx or 3xx', 'body does not contain "nope"']);
  });

  it('lets a status_code rule replace the default', () => {
    expect(evaluateHttpResponse([{ type: 'status_code', operator: 'eq', value: 503 }], at(503)).passed).toBe(true);
    expect(evaluateHttpResponse([{ type: 'status_code', operator: 'eq', value: 201 }], at(200)).failures).toEqual([
      'status code 200 is not eq 201',
    ]);
  });
});
