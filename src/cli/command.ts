/** What every CLI command is: its words, help, options, and a run that returns both outputs. */
import type { ParseArgsConfig } from 'node:util';
import type { ApiClient } from '../api/index.ts';
import { UsageError } from './cli-error.ts';
import type { Connection } from './connection.ts';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandInput {
  values: OptionValues;
  positionals: string[];
}

export interface CommandContext {
  client: ApiClient;
  connection: Connection;
  now: Date;
  env: NodeJS.ProcessEnv;
}

/** Aligned text for people, and the documented JSON shape for scripts (docs/during-an-incident.md). */
export interface Output {
  human: string;
  json: unknown;
  /** For an audited command: the entry's target and values, when they are not the output's json (a secret in it, a before only the command can read). */
  audit?: { target: string; before: unknown; after: unknown };
}

/** What a command that uses the site's public routes, not the API, is given. */
export interface SiteContext {
  siteUrl: string;
  now: Date;
  env: NodeJS.ProcessEnv;
}

/** What a command on the console's store on this machine (operators, audit) is given. */
export interface StoreContext {
  /** The site's address, for links (--site-url, SITE_PUBLIC_URL, or the `npm start` here). */
  siteUrl: string;
  now: Date;
  env: NodeJS.ProcessEnv;
  warn(line: string): void;
}

export type Command = ApiCommand | SiteCommand | StoreCommand;

interface CommandDescription {
  /** e.g. ['incident', 'open'] */
  words: readonly string[];
  summary: string;
  /** After `porchlight <words>`, e.g. `ID --status STATUS --message TEXT`. */
  usage: string;
  /** One line per option: `--title TEXT   what it is`. */
  optionHelp: readonly string[];
  options: OptionSpec;
  examples: readonly string[];
  /** Positional arguments this command takes (exactly). */
  positionals: readonly string[];
}

export interface ApiCommand extends CommandDescription {
  needs?: 'api';
  /** A change: recorded in the console's audit trail (see run.ts). */
  audit?: boolean;
  /** The audited resource as it is before the change (same shape as the output's json), read before `run`. */
  auditBefore?: (client: ApiClient, target: string, now: Date) => Promise<unknown>;
  run(context: CommandContext, input: CommandInput): Promise<Output>;
}

/** Needs only the site's address (no API key): it does what a visitor's browser does. */
export interface SiteCommand extends CommandDescription {
  needs: 'site';
  run(context: SiteContext, input: CommandInput): Promise<Output>;
}

/** Reads and writes the console's store on this machine (operators, the audit trail), not the API. */
export interface StoreCommand extends CommandDescription {
  needs: 'store';
  run(context: StoreContext, input: CommandInput): Promise<Output>;
}

export function text(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function required(values: OptionValues, name: string): string {
  const value = text(values, name);
  if (value === undefined || !value.trim()) throw new UsageError(`--${name} is required`);
  return value;
}

export function texts(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** Checks a value against a closed list, naming the flag and the choices. */
export function oneOf<T extends string>(value: string, choices: readonly T[], name: string): T {
  const found = choices.find((choice) => choice === value.trim().toLowerCase());
  if (!found) throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got "${value}")`);
  return found;
}
