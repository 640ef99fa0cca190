/**
 * The monitors screen: the embedded API's monitors with their state as the public page shows it
 * (up, down, degraded, paused, awaiting a first check), and pause/resume. Reading is every
 * operator's; pausing changes what the page shows, so it is an editor's (the CLI's `monitor
 * pause|resume` is the API key's).
 */
import type { Monitor } from '../api/index.ts';
import { monitorHealth } from '../site/lib/overall-status.ts';
import { html } from './html.ts';
import { consoleHref } from './paths.ts';
import { may } from './roles.ts';
import { apiProblem, page, type ScreenAnswer, type ScreenRequest, type ScreenTools } from './screen.ts';
import { csrfField, layout, problemLine, type ViewContext } from './views.ts';

export function monitorsView(ctx: ViewContext, monitors: readonly Monitor[], canChange: boolean, problem: string | null): string {
  const { i18n } = ctx;
  const rows = monitors.map((monitor) => {
    const health = monitorHealth(monitor, false);
    const paused = monitor.active === false;
    const action = canChange
      ? html`<form method="post" action="${consoleHref(`monitors/${encodeURIComponent(monitor.id)}`)}">${csrfField(ctx)}<input type="hidden" name="intent" value="${paused ? 'resume' : 'pause'}"><button type="submit" class="quiet">${i18n.t(paused ? 'console.resume' : 'console.pause')}</button></form>`
      : '';
    return html`<tr><td>${monitor.name}</td><td data-health="${health}">${i18n.t(`health.${health}`)}</td>${canChange ? html`<td>${action}</td>` : ''}</tr>`;
  });
  return layout(ctx, i18n.t('console.navMonitors'), html`${problemLine(problem)}
${monitors.length === 0 ? html`<p>${i18n.t('console.noMonitors')}</p>` : html`<table><thead><tr><th scope="col">${i18n.t('console.pageName')}</th><th scope="col">${i18n.t('console.monitorState')}</th>${canChange ? html`<th scope="col">${i18n.t('console.actions')}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>`}`);
}

const stateOf = (monitor: Monitor) => ({ name: monitor.name, active: monitor.active !== false, status: monitorHealth(monitor, false) });

/** GET monitors, POST monitors/ID (intent pause|resume). */
export async function monitorsScreen(tools: ScreenTools, req: ScreenRequest, id: string | null): Promise<ScreenAnswer> {
  const canChange = may(req.role, 'branding');
  const list = async () => Array.fromAsync(tools.client.monitors.listAll());
  if (req.method === 'GET' || id === null) return page(200, monitorsView(req.ctx, await list(), canChange, null));
  if (!canChange) return { refused: 'forbidden' };
  const intent = req.form.get('intent');
  if (intent !== 'pause' && intent !== 'resume') return page(400, monitorsView(req.ctx, await list(), canChange, req.ctx.i18n.t('console.missingFields')));
  try {
    const before = await tools.client.monitors.get(id);
    const after = await tools.client.monitors.update(id, { active: intent === 'resume' });
    await tools.audit(`monitor.${intent}`, id, stateOf(before), stateOf(after));
    return { redirect: 'monitors' };
  } catch (error) {
    return page(400, monitorsView(req.ctx, await list(), canChange, req.ctx.i18n.t('console.problem', { reason: apiProblem(error) })));
  }
}
