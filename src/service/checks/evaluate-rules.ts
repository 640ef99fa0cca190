import type { Rule } from '../../contract/monitor.ts';

/** What the rules of an HTTP check look at: the final response after redirects. */
export interface RuleInput {
  statusCode: number;
  /** Whole milliseconds from the start of the check to the final response's headers. */
  latencyMs: number;
  /** Response headers; names may be in any case. */
  headers: Record<string, string | string[]>;
  /** Response body as text (only its first ~1 MiB is read, see read-capped-body.ts). */
  body: string;
}

export interface RuleResult {
  passed: boolean;
  failures: string[];
}

type Comparison = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';

/** Long rule values are cut in messages so one failure stays a readable line. */
const QUOTE_LIMIT = 80;

function quote(text: string): string {
  const cut = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}...` : text;
  return JSON.stringify(cut);
}

function compare(actual: number, operator: Comparison, expected: number): boolean {
  switch (operator) {
    case 'eq': return actual === expected;
    case 'ne': return actual !== expected;
    case 'lt': return actual < expected;
    case 'lte': return actual <= expected;
    case 'gt': return actual > expected;
    case 'gte': return actual >= expected;
  }
}

function headerValue(headers: RuleInput['headers'], name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value.join(', ') : value;
  }
  return null;
}

function bodyFailure(body: string, operator: 'contains' | 'not_contains' | 'eq' | 'ne', value: string): string | null {
  switch (operator) {
    case 'contains': return body.includes(value) ? null : `body does not contain ${quote(value)}`;
    case 'not_contains': return body.includes(value) ? `body contains ${quote(value)}` : null;
    case 'eq': return body === value ? null : `body is not eq ${quote(value)}`;
    case 'ne': return body === value ? `body is eq ${quote(value)}` : null;
  }
}

/**
 * Header rule semantics: names match case-insensitively; repeated headers are joined with ", ".
 * A missing header fails exists/contains/eq and passes ne (an absent value is not equal).
 * Actual response header values are left out of messages (they may be cookies or tokens).
 */
function headerFailure(rule: Extract<Rule, { type: 'header' }>, headers: RuleInput['headers']): string | null {
  const actual = headerValue(headers, rule.name);
  const label = `header ${quote(rule.name)}`;
  if (rule.operator === 'exists') return actual === null ? `${label} is missing` : null;
  // A misconfigured rule must fail loudly rather than pass silently (contains "" is always true).
  if (rule.value === undefined) return `${label} rule "${rule.operator}" has no value to compare`;
  switch (rule.operator) {
    case 'contains':
      if (actual === null) return `${label} is missing`;
      return actual.includes(rule.value) ? null : `${label} does not contain ${quote(rule.value)}`;
    case 'eq':
      if (actual === null) return `${label} is missing`;
      return actual === rule.value ? null : `${label} is not eq ${quote(rule.value)}`;
    case 'ne':
      return actual === rule.value ? `${label} is eq ${quote(rule.value)}` : null;
  }
}

function ruleFailure(rule: Rule, response: RuleInput): string | null {
  switch (rule.type) {
    case 'status_code':
      return compare(response.statusCode, rule.operator, rule.value)
        ? null
        : `status code ${response.statusCode} is not ${rule.operator} ${rule.value}`;
    case 'response_time':
      return compare(response.latencyMs, rule.operator, rule.value)
        ? null
        : `response time ${response.latencyMs} ms is not ${rule.operator} ${rule.value} ms`;
    case 'body':
      return bodyFailure(response.body, rule.operator, rule.value);
    case 'header':
      return headerFailure(rule, response.headers);
  }
}

/** Evaluates every rule against a response (pure). Passed only when no rule fails. */
export function evaluateRules(rules: readonly Rule[], response: RuleInput): RuleResult {
  const failures: string[] = [];
  for (const rule of rules) {
    const failure = ruleFailure(rule, response);
    if (failure !== null) failures.push(failure);
  }
  return { passed: failures.length === 0, failures };
}

/**
 * The verdict of an HTTP check: the rules, plus the default "status is 2xx or 3xx" unless a
 * status_code rule is present (such a rule replaces the default).
 */
export function evaluateHttpResponse(rules: readonly Rule[], response: RuleInput): RuleResult {
  const result = evaluateRules(rules, response);
  const hasStatusRule = rules.some((rule) => rule.type === 'status_code');
  const defaultOk = response.statusCode >= 200 && response.statusCode < 400;
  if (hasStatusRule || defaultOk) return result;
  return { passed: false, failures: [`status code ${response.statusCode} is not 2xx or 3xx`, ...result.failures] };
}
