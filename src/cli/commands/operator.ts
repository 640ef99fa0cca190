/**
 * `porchlight operator add|list|remove|role|passkeys|remove-passkey` and `porchlight audit`: the
 * console's operators, their passkeys and its audit trail, read from the console's store on this
 * machine (src/console/cli-store.ts), not the API.
 */
import { authLocation } from '../../auth/location.ts';
import { openAuthDatabase, SessionStore } from '../../auth/session-store.ts';
import { DEFAULT_SMTP_FROM, readSmtpSettings, smtpConnection } from '../../contract/smtp.ts';
import { passkeyAuditValue, type Passkey } from '../../console/passkey-store.ts';
import { OperatorExistsError, type ConsoleStore, type Operator } from '../../console/store.ts';
import type { OperatorChange } from '../../console/operator-rules.ts';
import { openConsoleStore, cliActor, subscribersDbOf } from '../../console/cli-store.ts';
import { isRole, OPERATOR_SUBJECT, ROLES } from '../../console/roles.ts';
import { parseEmailAddress } from '../../subscribers/email-address.ts';
import { UsageError } from '../cli-error.ts';
import { text, type Command, type StoreContext } from '../command.ts';
import { table } from '../table.ts';

/** Mails the set-up link when SMTP is configured; resolves to whether it was sent. */
async function mailLink(context: StoreContext, to: string, link: string): Promise<boolean> {
  const settings = readSmtpSettings(context.env);
  if (!settings) return false;
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpConnection(settings));
  try {
    await transport.sendMail({
      from: settings.from ?? DEFAULT_SMTP_FROM,
      to,
      subject: 'Your Porchlight console account',
      text: `An account on the Porchlight console was made for ${to}.\n\nChoose your password here (the link works once, for 24 hours):\n${link}\n`,
    });
    return true;
  } finally {
    transport.close();
  }
}

/** The operator an id or an e-mail address names. */
async function findOperator(store: ConsoleStore, who: string): Promise<Operator> {
  const found = (await store.credentials(who))?.operator ?? (await store.operator(who.trim()));
  if (!found) throw new UsageError(`no operator ${who}`);
  return found;
}

const auditValue = (operator: Operator | null) => (operator ? { email: operator.email, role: operator.role } : null);

/** Removes an operator or changes their role, audited with the values before and after. */
async function changeOperator(context: StoreContext, who: string, change: OperatorChange): Promise<{ before: Operator; after: Operator | null }> {
  return withExistingStore(context, async (store) => {
    const target = await findOperator(store, who);
    const result = await store.changeOperator(target.id, change, context.now.getTime());
    if (!result.ok) throw new UsageError(result.refusal === 'last-admin' ? `${target.email} is the last admin: make another operator admin first` : `no operator ${who}`);
    await store.record({ actor: cliActor(), action: change.kind === 'remove' ? 'operator.remove' : 'operator.role', target: target.id, before: auditValue(result.before), after: auditValue(result.after) }, context.now.getTime());
    return { before: result.before, after: result.after };
  });
}

/** Work on the console's store, closed after; a usage error when there is none yet. */
async function withExistingStore<T>(context: StoreContext, work: (store: ConsoleStore) => Promise<T>): Promise<T> {
  const store = await openConsoleStore(context.env, false);
  if (!store) throw new UsageError('no console store (no operator was ever added)');
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The one passkey a name or a credential id names among an operator's. */
function pickPasskey(keys: readonly Passkey[], which: string, email: string): Passkey {
  const byId = keys.find((key) => key.credentialId === which);
  if (byId) return byId;
  const named = keys.filter((key) => key.label === which);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new UsageError(`${email} has ${named.length} passkeys named "${which}": give the credential id (porchlight operator passkeys ${email})`);
  throw new UsageError(`${email} has no passkey "${which}"`);
}

/** Ends every console session of an operator (the sign-in store beside the console's); resolves to how many. */
async function signOut(context: StoreContext, operatorId: string): Promise<number> {
  const authDb = await openAuthDatabase(authLocation(context.env.DATABASE_URL?.trim() || null, subscribersDbOf(context.env)));
  try {
    return await new SessionStore(authDb).revokeAll({ kind: OPERATOR_SUBJECT, id: operatorId }, context.now.getTime());
  } finally {
    await authDb.close();
  }
}

const day = (at: number | null) => (at === null ? 'never' : new Date(at).toISOString().slice(0, 16).replace('T', ' '));

export const operatorCommands: Command[] = [
  {
    words: ['operator', 'add'],
    needs: 'store',
    summary: 'add a console operator; prints a one-time set-up link (and mails it when SMTP is set)',
    usage: 'EMAIL --role viewer|responder|editor|admin',
    optionHelp: ['--role ROLE           viewer (reads), responder (incidents, maintenance), editor (branding, pages), admin (operators)'],
    options: { role: { type: 'string' } },
    examples: ['porchlight operator add oncall@example.com --role responder'],
    positionals: ['EMAIL'],
    async run(context, { values, positionals: [typed = ''] }) {
      const email = parseEmailAddress(typed);
      if (!email) throw new UsageError(`"${typed}" is not an e-mail address`);
      const role = text(values, 'role');
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const store = await openConsoleStore(context.env, true);
      if (!store) throw new UsageError('no console store');
      try {
        const { operator, setupToken } = await store.addOperator(email.address, role, context.now.getTime()).catch((error: unknown) => {
          throw error instanceof OperatorExistsError ? new UsageError(error.message) : error;
        });
        await store.record({ actor: cliActor(), action: 'operator.add', target: operator.id, before: null, after: { email: operator.email, role } }, context.now.getTime());
        const link = `${context.siteUrl.replace(/\/$/, '')}/_porchlight/console/setup?t=${setupToken}`;
        const mailed = await mailLink(context, operator.email, link).catch((error: unknown) => {
          context.warn(`the set-up mail was not sent (${error instanceof Error ? error.message : String(error)})`);
          return false;
        });
        return {
          human: `added operator ${operator.email} (${role}), id ${operator.id}\nset-up link (one use, 24 hours${mailed ? '; also mailed' : ''}):\n${link}`,
          json: { id: operator.id, email: operator.email, role, setupLink: link, mailed },
        };
      } finally {
        await store.close();
      }
    },
  },
  {
    words: ['operator', 'remove'],
    needs: 'store',
    summary: 'remove a console operator (their sessions end at once); never the last admin',
    usage: 'EMAIL|ID',
    optionHelp: [],
    options: {},
    examples: ['porchlight operator remove oncall@example.com'],
    positionals: ['EMAIL|ID'],
    async run(context, { positionals: [who = ''] }) {
      const { before } = await changeOperator(context, who, { kind: 'remove' });
      return { human: `removed operator ${before.email} (${before.role})`, json: { id: before.id, email: before.email, removed: true } };
    },
  },
  {
    words: ['operator', 'role'],
    needs: 'store',
    summary: "change a console operator's role; never the last admin's",
    usage: 'EMAIL|ID --role viewer|responder|editor|admin',
    optionHelp: ['--role ROLE           the new role'],
    options: { role: { type: 'string' } },
    examples: ['porchlight operator role oncall@example.com --role editor'],
    positionals: ['EMAIL|ID'],
    async run(context, { values, positionals: [who = ''] }) {
      const role = text(values, 'role');
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const { before, after } = await changeOperator(context, who, { kind: 'role', role });
      return { human: `${before.email}: ${before.role} → ${after?.role ?? role}`, json: { id: before.id, email: before.email, before: before.role, after: after?.role ?? role } };
    },
  },
  {
    words: ['operator', 'list'],
    needs: 'store',
    summary: 'list the console operators',
    usage: '',
    optionHelp: [],
    options: {},
    examples: ['porchlight operator list'],
    positionals: [],
    async run(context) {
      const store = await openConsoleStore(context.env, false);
      const operators = store ? await store.operators().finally(() => store.close()) : [];
      return {
        human: operators.length === 0 ? 'no operators' : table(['ID', 'EMAIL', 'ROLE', 'PASSWORD'], operators.map((o) => [o.id, o.email, o.role, o.hasPassword ? 'set' : 'not yet'])),
        json: operators.map((o) => ({ id: o.id, email: o.email, role: o.role, passwordSet: o.hasPassword })),
      };
    },
  },
  {
    words: ['operator', 'passkeys'],
    needs: 'store',
    summary: "list an operator's passkeys: name, when added and last used, credential id",
    usage: 'EMAIL|ID',
    optionHelp: [],
    options: {},
    examples: ['porchlight operator passkeys oncall@example.com'],
    positionals: ['EMAIL|ID'],
    async run(context, { positionals: [who = ''] }) {
      return withExistingStore(context, async (store) => {
        const operator = await findOperator(store, who);
        const keys = await store.passkeys().ofOperator(operator.id);
        return {
          human: keys.length === 0 ? `${operator.email} has no passkeys` : table(['NAME', 'ADDED (UTC)', 'LAST USED (UTC)', 'CREDENTIAL ID'], keys.map((key) => [key.label || '-', day(key.createdAt), day(key.lastUsedAt), key.credentialId])),
          json: keys.map((key) => ({ name: key.label, credentialId: key.credentialId, addedAt: new Date(key.createdAt).toISOString(), lastUsedAt: key.lastUsedAt === null ? null : new Date(key.lastUsedAt).toISOString() })),
        };
      });
    },
  },
  {
    words: ['operator', 'remove-passkey'],
    needs: 'store',
    summary: "remove an operator's passkey (a lost or stolen device); --sign-out also ends their sessions",
    usage: 'EMAIL|ID NAME|CREDENTIAL-ID [--sign-out]',
    optionHelp: ['--sign-out            also end every console session of the operator (the device may hold one)'],
    options: { 'sign-out': { type: 'boolean' } },
    examples: ['porchlight operator remove-passkey oncall@example.com "Work laptop" --sign-out'],
    positionals: ['EMAIL|ID', 'NAME|CREDENTIAL-ID'],
    async run(context, { values, positionals: [who = '', which = ''] }) {
      return withExistingStore(context, async (store) => {
        const operator = await findOperator(store, who);
        const key = pickPasskey(await store.passkeys().ofOperator(operator.id), which, operator.email);
        const removed = await store.passkeys().remove(operator.id, key.credentialId);
        if (!removed) throw new UsageError(`${operator.email} has no passkey "${which}"`);
        // Audited like the console's own removal, with the CLI as the actor.
        await store.record({ actor: cliActor(), action: 'operator.passkey.remove', target: operator.id, before: passkeyAuditValue(removed), after: null }, context.now.getTime());
        const ended = values['sign-out'] === true ? await signOut(context, operator.id) : null;
        const sessions = ended === null ? '' : `; ended ${ended} session${ended === 1 ? '' : 's'}`;
        return {
          human: `removed passkey "${removed.label || removed.credentialId}" of ${operator.email}${sessions}`,
          json: { operator: operator.email, name: removed.label, credentialId: removed.credentialId, removed: true, sessionsEnded: ended },
        };
      });
    },
  },
  {
    words: ['audit'],
    needs: 'store',
    summary: 'the audit trail: who changed what, when, before and after (console and CLI)',
    usage: '[--limit N]',
    optionHelp: ['--limit N             newest N entries (default 50)'],
    options: { limit: { type: 'string' } },
    examples: ['porchlight audit --limit 20', 'porchlight audit --json | jq ".[0]"'],
    positionals: [],
    async run(context, { values }) {
      const limit = Number(text(values, 'limit') ?? '50');
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000');
      const store = await openConsoleStore(context.env, false);
      const entries = store ? await store.audit(limit).finally(() => store.close()) : [];
      const show = (value: unknown) => (value === null || value === undefined ? '-' : JSON.stringify(value));
      return {
        human: entries.length === 0 ? 'no audit entries' : table(['WHEN', 'WHO', 'WHAT', 'TARGET', 'BEFORE', 'AFTER'], entries.map((e) => [new Date(e.at).toISOString(), e.actor, e.action, e.target, show(e.before), show(e.after)])),
        json: entries.map((e) => ({ at: new Date(e.at).toISOString(), actor: e.actor, action: e.action, target: e.target, before: e.before, after: e.after })),
      };
    },
  },
];
