/** The CLI's --help texts, built from the commands' own descriptions. */
import type { Command } from './command.ts';

export const GLOBAL_OPTION_HELP = [
  '--json                output JSON for scripts (fields documented in docs/during-an-incident.md)',
  '--api-url URL         the API, e.g. https://api.example.com/api/v1 (default: STATUS_API_URL)',
  '--api-key-file FILE   read the API key from FILE (default: STATUS_API_KEY)',
  '--site-url URL        the site, for page URLs and subscribe (default: SITE_PUBLIC_URL)',
  '-h, --help            this help',
];

const CONNECTION_NOTE =
  'With neither STATUS_API_URL nor STATUS_API_KEY set, porchlight talks to the embedded API of a\n`npm start` running on this machine (from the same folder, or CACHE_DIR).';

const EXIT_NOTE = 'Exit codes: 0 success, 1 API or network error, 2 usage error.';

export function overviewHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.words.join(' ').length));
  const lines = commands.map((command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`);
  return [
    'porchlight: tell the world about incidents and maintenance from a terminal',
    '',
    'Usage: porchlight <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options for every command:',
    ...GLOBAL_OPTION_HELP.map((line) => `  ${line}`),
    '',
    CONNECTION_NOTE,
    EXIT_NOTE,
    'Run `porchlight <command> --help` for its options and examples.',
  ].join('\n');
}

export function groupHelp(group: string, commands: readonly Command[]): string {
  return overviewHelp(commands).replace('Usage: porchlight <command> [options]', `Usage: porchlight ${group} <command> [options]`);
}

export function commandHelp(command: Command): string {
  const name = `porchlight ${command.words.join(' ')}`;
  return [
    `${name}: ${command.summary}`,
    '',
    `Usage: ${name}${command.usage ? ` ${command.usage}` : ''} [--json]`,
    ...(command.optionHelp.length > 0 ? ['', 'Options:', ...command.optionHelp.map((line) => `  ${line}`)] : []),
    '',
    'Examples:',
    ...command.examples.map((line) => `  ${line}`),
    '',
    'Options for every command:',
    ...GLOBAL_OPTION_HELP.map((line) => `  ${line}`),
    '',
    EXIT_NOTE,
  ].join('\n');
}
