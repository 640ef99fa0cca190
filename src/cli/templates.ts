/**
 * Incident templates: Markdown files in TEMPLATES_DIR (default ./templates) with front matter
 *
 *     ---
 *     title: Database outage in {region}
 *     severity: major
 *     status: investigating
 *     monitors: [Primary database]
 *     ---
 *     We are investigating failing connections to the database in {region}.
 *
 * The message is the front matter's `message`, else the body. `{name}` placeholders are filled
 * from `--var name=value`; a placeholder without a value is a usage error naming it (a half
 * filled message must never reach a public page). `{{` and `}}` write literal braces.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './cli-error.ts';

export interface IncidentTemplate {
  title?: string | undefined;
  severity?: string | undefined;
  status?: string | undefined;
  message?: string | undefined;
  monitors: string[];
}

const FIELDS = new Set(['title', 'severity', 'status', 'message', 'monitors']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** `--var k=v` flags as a map; a malformed one is a usage error. */
export function parseVars(pairs: readonly string[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const key = equals > 0 ? pair.slice(0, equals).trim() : '';
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) throw new UsageError(`--var must be NAME=VALUE (got "${pair}")`);
    vars.set(key, pair.slice(equals + 1));
  }
  return vars;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.at(-1) === trimmed[0]) return trimmed.slice(1, -1);
  return trimmed;
}

/** Markdown soft line breaks (a single newline) become spaces; blank lines between paragraphs stay. */
function unwrap(body: string): string {
  return body.split(/\n\s*\n/).map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ')).join('\n\n');
}

/** The small YAML subset templates need: `key: value`, `key: [a, b]`, and `- item` lists. */
export function parseTemplate(source: string, name: string): IncidentTemplate {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
  if (!match) throw new UsageError(`template ${name}: must start with front matter between --- lines`);
  const [, head = '', body = ''] = match;
  const values = new Map<string, string | string[]>();
  let listKey: string | null = null;
  for (const raw of head.split('\n')) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const item = /^\s+-\s*(.*)$/.exec(raw);
    if (item && listKey) {
      const list = values.get(listKey);
      if (Array.isArray(list)) list.push(unquote(item[1] ?? ''));
      continue;
    }
    const pair = /^([A-Za-z]+):\s*(.*)$/.exec(raw);
    if (!pair?.[1] || !FIELDS.has(pair[1])) throw new UsageError(`template ${name}: cannot read front matter line "${raw.trim()}"`);
    const [, key, value = ''] = pair;
    listKey = null;
    if (value.trim() === '') {
      values.set(key, []);
      listKey = key;
    } else if (/^\[.*\]$/.test(value.trim())) {
      values.set(key, value.trim().slice(1, -1).split(',').map(unquote).filter(Boolean));
    } else {
      values.set(key, unquote(value));
    }
  }
  const single = (key: string) => {
    const value = values.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  const monitors = values.get('monitors');
  return {
    title: single('title'),
    severity: single('severity'),
    status: single('status'),
    message: single('message') ?? (body.trim() ? unwrap(body.trim()) : undefined),
    monitors: Array.isArray(monitors) ? monitors : typeof monitors === 'string' ? [monitors] : [],
  };
}

/** Fills `{name}`; every placeholder must have a value. */
export function fillPlaceholders(text: string, vars: ReadonlyMap<string, string>, where: string): string {
  return text.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_-]*)\}/g, (whole, key: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = key === undefined ? undefined : vars.get(key);
    if (value === undefined) throw new UsageError(`${where}: missing variable "${key ?? ''}"; pass --var ${key ?? ''}=VALUE`);
    return value;
  });
}

export function fillTemplate(template: IncidentTemplate, vars: ReadonlyMap<string, string>, name: string): IncidentTemplate {
  const fill = (value: string | undefined) => (value === undefined ? undefined : fillPlaceholders(value, vars, `template ${name}`));
  return {
    title: fill(template.title),
    severity: fill(template.severity),
    status: fill(template.status),
    message: fill(template.message),
    monitors: template.monitors.map((monitor) => fillPlaceholders(monitor, vars, `template ${name}`)),
  };
}

export function templatesDir(env: NodeJS.ProcessEnv): string {
  return env.TEMPLATES_DIR?.trim() || './templates';
}

/** A template as written, placeholders unfilled (the console shows it, then fills it). */
export async function readTemplate(dir: string, name: string): Promise<IncidentTemplate> {
  // A name, never a path: the template is always a file directly in TEMPLATES_DIR.
  if (!NAME.test(name)) throw new UsageError(`--template must be a template name such as db-outage (got "${name}")`);
  const file = path.join(dir, `${name}.md`);
  const source = await readFile(file, 'utf8').catch(() => null);
  if (source === null) throw new UsageError(`no template "${name}" (looked for ${file}; set TEMPLATES_DIR to change the folder)`);
  return parseTemplate(source, name);
}

export async function loadTemplate(dir: string, name: string, vars: ReadonlyMap<string, string>): Promise<IncidentTemplate> {
  return fillTemplate(await readTemplate(dir, name), vars, name);
}

/** The names of the templates in `dir` (files NAME.md), sorted; none when the folder is missing. */
export async function listTemplates(dir: string): Promise<string[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  return files.filter((file) => file.endsWith('.md') && NAME.test(file.slice(0, -3))).map((file) => file.slice(0, -3)).sort();
}

/** The `{name}` placeholders a template uses, each once, in order of appearance. */
export function templatePlaceholders(template: IncidentTemplate): string[] {
  const names = new Set<string>();
  for (const text of [template.title, template.severity, template.status, template.message, ...template.monitors]) {
    for (const match of (text ?? '').replace(/\{\{|\}\}/g, '').matchAll(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/g)) names.add(match[1] ?? '');
  }
  return [...names].filter(Boolean);
}
