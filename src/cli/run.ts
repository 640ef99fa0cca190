/**
 * One CLI invocation: find the command, parse its flags, reach the API, print. Returns the exit
 * code; every failure becomes one line on stderr (describe-error.ts), never a stack trace.
 */
import { parseArgs } from 'node:util';
import { createClient, type ApiClient } from '../api/index.ts';
import { EXIT_OK, EXIT_USAGE, UsageError } from './cli-error.ts';
import type { Command, OptionSpec } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { resolveConnection, resolveSiteUrl, type Connection } from './connection.ts';
import { describeError } from './describe-error.ts';
import { commandHelp, groupHelp, overviewHelp } from './help.ts';
import { cliActor, openConsoleStore } from '../console/cli-store.ts';

/**
 * A change made with the CLI joins the console's audit trail when the console's store is on this
 * machine (or on DATABASE_URL): who (`cli:<user>`), what, and the resource as it was before (for
 * a change of an existing one; null for a creation) and as it is after. A
 * store that cannot be reached is a warning, never a failed command (the change is made).
 */
async function recordCliChange(io: Io, action: string, target: string, before: unknown, after: unknown, exactTarget = false): Promise<void> {
  try {
    const store = await openConsoleStore(io.env, false);
    if (!store) return;
    const id = !exactTarget && typeof after === 'object' && after !== null && 'id' in after ? String((after as { id: unknown }).id) : target;
    await store.record({ actor: cliActor(), action, target: id, before, after }, io.now().getTime()).finally(() => store.close());
  } catch (error) {
    io.err(`porchlight: warning: not recorded in the audit trail (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  now(): Date;
}

const GLOBAL_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  'api-url': { type: 'string' },
  'api-key-file': { type: 'string' },
  'site-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  // Only so it can be refused with a reason rather than "unknown option".
  'api-key': { type: 'string' },
};

/** The longest run of leading words that names a command; the rest are its arguments. */
function findCommand(argv: readonly string[]): { command: Command | null; rest: string[]; group: Command[] } {
  const [first, second] = argv;
  const exact = COMMANDS.find((command) => command.words.length === 2 ? command.words[0] === first && command.words[1] === second : command.words[0] === first);
  if (exact) return { command: exact, rest: argv.slice(exact.words.length), group: [] };
  return { command: null, rest: [], group: COMMANDS.filter((command) => command.words.length === 2 && command.words[0] === first) };
}

function parseFlags(command: Command, rest: string[]) {
  try {
    return parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs' messages are one line and name the flag; its `To specify a positional…` hint is noise here.
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '').replace(/\. To specify.*$/, '') : String(error);
    throw new UsageError(message);
  }
}

export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  let connection: Connection | null = null;
  let client: ApiClient | null = null;
  let command: Command | null = null;
  try {
    const found = findCommand(argv);
    command = found.command;
    if (!command) {
      const [first] = argv;
      if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
        io.out(overviewHelp(COMMANDS));
        return EXIT_OK;
      }
      if (found.group.length > 0) {
        const second = argv[1];
        if (second === undefined || second === '--help' || second === '-h') {
          io.out(groupHelp(first, found.group));
          return EXIT_OK;
        }
        throw new UsageError(`unknown command "${first} ${second}"; try: ${found.group.map((c) => c.words.join(' ')).join(', ')}`);
      }
      throw new UsageError(`unknown command "${first}"; run porchlight --help`);
    }
    const { values, positionals } = parseFlags(command, found.rest);
    if (values.help === true) {
      io.out(commandHelp(command));
      return EXIT_OK;
    }
    if (values['api-key'] !== undefined) {
      throw new UsageError('the API key is never taken as a flag value (shell history, ps); set STATUS_API_KEY or use --api-key-file FILE');
    }
    if (positionals.length !== command.positionals.length) {
      const wanted = command.positionals.length === 0 ? 'no arguments' : command.positionals.join(' ');
      throw new UsageError(`porchlight ${command.words.join(' ')} takes ${wanted}${positionals.length > 0 ? ` (got ${positionals.join(' ')})` : ''}`);
    }
    const str = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
    if (command.needs === 'site') {
      const output = await command.run({ siteUrl: await resolveSiteUrl({ siteUrl: str('site-url') }, io.env), now: io.now(), env: io.env }, { values, positionals });
      io.out(values.json === true ? JSON.stringify(output.json, null, 2) : output.human);
      return EXIT_OK;
    }
    if (command.needs === 'store') {
      const siteUrl = await resolveSiteUrl({ siteUrl: str('site-url') }, io.env).catch(() => 'http://localhost:4321');
      const output = await command.run({ siteUrl, now: io.now(), env: io.env, warn: (line) => io.err(`porchlight: warning: ${line}`) }, { values, positionals });
      io.out(values.json === true ? JSON.stringify(output.json, null, 2) : output.human);
      return EXIT_OK;
    }
    connection = await resolveConnection({ apiUrl: str('api-url'), apiKeyFile: str('api-key-file'), siteUrl: str('site-url') }, io.env);
    // No retries: during an incident a clear failure now beats a silent wait; scripts retry on exit 1.
    client = createClient({
      baseUrl: connection.apiUrl,
      apiKey: connection.apiKey,
      maxRetries: 0,
      timeouts: { totalMs: 15_000 },
      logger: { warn: (message) => io.err(`porchlight: warning: ${message}`) },
    });
    // A before that cannot be read is left empty: the command itself then says what is wrong.
    const before = command.audit && command.auditBefore ? await command.auditBefore(client, positionals[0] ?? '', io.now()).catch(() => null) : null;
    const output = await command.run({ client, connection, now: io.now(), env: io.env }, { values, positionals });
    if (command.audit) {
      if (output.audit) await recordCliChange(io, command.words.join('.'), output.audit.target, output.audit.before, output.audit.after, true);
      else await recordCliChange(io, command.words.join('.'), positionals[0] ?? '', before, output.json);
    }
    io.out(values.json === true ? JSON.stringify(output.json, null, 2) : output.human);
    return EXIT_OK;
  } catch (error) {
    const failure = describeError(error, connection?.apiUrl ?? null);
    const hint = failure.exitCode === EXIT_USAGE && command ? ` (see porchlight ${command.words.join(' ')} --help)` : '';
    io.err(`porchlight: ${failure.message}${hint}`);
    return failure.exitCode;
  } finally {
    await client?.close().catch(() => undefined);
  }
}
