import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-error.ts';
import { fillPlaceholders, loadTemplate, parseTemplate, parseVars } from '../../src/cli/templates.ts';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../../src/contract/index.ts';

describe('incident templates', () => {
  it('reads front matter, list forms, and the body as the message', () => {
    const template = parseTemplate('---\ntitle: "Outage in {region}"\nseverity: major\nmonitors:\n  - Primary database\n  - "Cache cluster"\n---\nLine one\nstill one.\n\nSecond paragraph.\n', 't');
    expect(template).toEqual({
      title: 'Outage in {region}',
      severity: 'major',
      status: undefined,
      message: 'Line one still one.\n\nSecond paragraph.',
      monitors: ['Primary database', 'Cache cluster'],
    });
    expect(parseTemplate('---\nmessage: from front matter\nmonitors: [A, "B"]\n---\nbody', 't')).toMatchObject({ message: 'from front matter', monitors: ['A', 'B'] });
  });

  it('fills placeholders and names a missing one', () => {
    expect(fillPlaceholders('{a} and {{literal}}', new Map([['a', 'x']]), 'w')).toBe('x and {literal}');
    expect(() => fillPlaceholders('in {region}', new Map(), 'template db-outage')).toThrow('template db-outage: missing variable "region"; pass --var region=VALUE');
  });

  it('refuses malformed templates, names and variables', async () => {
    expect(() => parseTemplate('no front matter', 't')).toThrow(UsageError);
    expect(() => parseTemplate('---\ncolour: red\n---\n', 't')).toThrow(/cannot read front matter line "colour: red"/);
    expect(() => parseVars(['region'])).toThrow(/--var must be NAME=VALUE/);
    expect(parseVars(['a=b=c']).get('a')).toBe('b=c');
    await expect(loadTemplate('templates', '../package', new Map())).rejects.toThrow(/must be a template name/);
    await expect(loadTemplate('templates', 'nope', new Map())).rejects.toThrow(/no template "nope"/);
  });

  it('the shipped templates load with their variables and use valid values', async () => {
    const names = (await readdir('templates')).filter((file) => file.endsWith('.md')).map((file) => file.slice(0, -3));
    expect(names.length).toBeGreaterThanOrEqual(2);
    const vars = new Map([['region', 'eu'], ['service', 'Public API']]);
    for (const name of names) {
      const template = await loadTemplate('templates', name, vars);
      expect(template.title, name).toBeTruthy();
      expect(template.message, name).toBeTruthy();
      expect(INCIDENT_SEVERITIES, name).toContain(template.severity);
      expect(INCIDENT_STATUSES, name).toContain(template.status);
    }
  });
});
