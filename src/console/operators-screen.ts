/**
 * Operator changes on the operators screen (admin only): change a role, remove an operator. The
 * store refuses to leave the console without an admin; a removed operator's sessions end at once
 * (and any session of theirs finds no operator behind it on its next request anyway).
 */
import { html, trusted, type Html } from './html.ts';
import type { OperatorChange } from './operator-rules.ts';
import { consoleHref } from './paths.ts';
import { isRole, ROLES, type Role } from './roles.ts';
import type { ConsoleStore, Operator } from './store.ts';
import { csrfField, type ViewContext } from './views.ts';

const roleLabel = (ctx: ViewContext, role: Role) => ctx.i18n.t(`console.role${role[0]?.toUpperCase()}${role.slice(1)}` as 'console.roleViewer');

/** The role and remove forms of one operator's row. */
export function operatorRowActions(ctx: ViewContext, operator: Operator): Html {
  const base = consoleHref(`operators/${encodeURIComponent(operator.id)}`);
  const field = `role-${operator.id}`;
  return html`<form method="post" action="${base}/role">${csrfField(ctx)}<label for="${field}">${ctx.i18n.t('console.roleOf', { email: operator.email })}</label>
<select id="${field}" name="role">${ROLES.map((role) => html`<option value="${role}"${role === operator.role ? trusted(' selected') : ''}>${roleLabel(ctx, role)}</option>`)}</select>
<button type="submit" class="quiet">${ctx.i18n.t('console.changeRole')}</button></form>
<form method="post" action="${base}/remove">${csrfField(ctx)}<button type="submit" class="quiet">${ctx.i18n.t('console.removeOperator', { email: operator.email })}</button></form>`;
}

/** The change a POST operators/ID/(role|remove) asks for, or null when the form is not one. */
export function requestedChange(action: string, form: URLSearchParams): OperatorChange | null {
  if (action === 'remove') return { kind: 'remove' };
  const role = form.get('role');
  return action === 'role' && isRole(role) ? { kind: 'role', role } : null;
}

export const operatorAuditValue = (operator: Operator | null) => (operator ? { email: operator.email, role: operator.role } : null);

export type { ConsoleStore };
