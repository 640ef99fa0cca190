/**
 * Every word a visitor reads about e-mail subscriptions outside the status page (the answer
 * pages and the mails), from the message catalogs (`subscribe.*`, i18n/messages/), in the
 * subscriber's language. Status words, labels and times are the ones the pages use (incident.*,
 * maintenance.*, health.*, affected.label), never a second copy. The form on the page reads the
 * catalog itself (components/SubscribeForm.astro).
 */
import type { Translator } from '../i18n/translator.ts';
import type { TimeView } from './types.ts';

export type MailEventKind =
  | 'incident-created'
  | 'incident-updated'
  | 'incident-resolved'
  | 'maintenance-scheduled'
  | 'maintenance-started'
  | 'maintenance-completed'
  | 'monitor-down';

function words(i18n: Translator) {
  const t = i18n.t;
  return {
    lang: i18n.locale,
    dir: i18n.dir,

    // Answer pages.
    formHeading: t('subscribe.formHeading'),
    formIntro: t('subscribe.formIntro'),
    componentsSummary: t('subscribe.componentsSummary'),
    componentsHint: t('subscribe.componentsHint'),
    checkInboxTitle: t('subscribe.checkInboxTitle'),
    checkInboxBody: t('subscribe.checkInboxBody'),
    invalidAddressTitle: t('subscribe.invalidAddressTitle'),
    invalidAddressBody: t('subscribe.invalidAddressBody'),
    tooManyTitle: t('subscribe.tooManyTitle'),
    tooManyBody: t('subscribe.tooManyBody'),
    unavailableTitle: t('subscribe.unavailableTitle'),
    unavailableBody: t('subscribe.unavailableBody'),
    storeUnavailableBody: t('subscribe.storeUnavailableBody'),
    confirmTitle: t('subscribe.confirmTitle'),
    confirmBody: t('subscribe.confirmBody'),
    confirmButton: t('subscribe.confirmButton'),
    confirmedTitle: t('subscribe.confirmedTitle'),
    confirmedBody: t('subscribe.confirmedBody'),
    linkInvalidTitle: t('subscribe.linkInvalidTitle'),
    linkInvalidBody: t('subscribe.linkInvalidBody'),
    manageTitle: t('subscribe.manageTitle'),
    manageBody: t('subscribe.manageBody'),
    unsubscribeButton: t('subscribe.unsubscribeButton'),
    saveComponentsButton: t('subscribe.saveComponentsButton'),
    unsubscribedTitle: t('subscribe.unsubscribedTitle'),
    unsubscribedBody: t('subscribe.unsubscribedBody'),
    savedTitle: t('subscribe.savedTitle'),
    savedBody: t('subscribe.savedBody'),
    backToPage: t('subscribe.backToPage'),
    notFoundTitle: t('notFound.title'),
    notFoundBody: t('subscribe.notFoundBody'),

    // Mails.
    confirmSubject: (page: string) => t('subscribe.confirmSubject', { page }),
    confirmMailBody: (page: string) => t('subscribe.confirmMailBody', { page }),
    confirmMailIgnore: t('subscribe.confirmMailIgnore'),
    /** What happened: the mail's heading, and before its title in the subject. */
    events: {
      'incident-created': t('subscribe.event.incidentCreated'),
      'incident-updated': t('subscribe.event.incidentUpdated'),
      'incident-resolved': t('incident.resolved'),
      'maintenance-scheduled': t('subscribe.event.maintenanceScheduled'),
      'maintenance-started': t('subscribe.event.maintenanceStarted'),
      'maintenance-completed': t('subscribe.event.maintenanceCompleted'),
      'monitor-down': t('health.down'),
    } satisfies Record<MailEventKind, string>,
    /** "Label: value" with the language's own colon (a plain-text line, a subject). */
    labelled: (label: string, value: string) => t('subscribe.labelled', { label, value }),
    updateAt: (status: string, time: string) => t('subscribe.updateAt', { status, time }),
    /** A time as the page writes it (its zone, labelled) and the instant in ISO 8601. */
    when: (time: TimeView) => (time.iso ? t('subscribe.timeWithIso', { time: time.absolute, iso: time.iso }) : time.absolute),
    list: (items: readonly string[]) => i18n.list(items),
    monitorDownBody: t('subscribe.monitorDownBody'),
    downStatus: t('health.down'),
    checkedLine: t('subscribe.checkedLine'),
    statusLine: t('subscribe.statusLine'),
    impactLine: t('subscribe.impactLine'),
    affectedLine: t('affected.label'),
    startedLine: t('incident.started'),
    resolvedLine: t('incident.resolvedAt'),
    maintenanceStatus: {
      'maintenance-scheduled': t('maintenance.upcoming'),
      'maintenance-started': t('maintenance.running'),
      'maintenance-completed': t('maintenance.completed'),
    },
    /** The window's start and end, labelled as the page labels an upcoming or a running window. */
    windowLabels: {
      'maintenance-scheduled': [t('maintenance.starts'), t('maintenance.ends')],
      'maintenance-started': [t('maintenance.started'), t('maintenance.expectedEnd')],
      'maintenance-completed': [t('maintenance.started'), t('maintenance.ends')],
    } as const,
    detailsLink: t('subscribe.detailsLink'),
    footerWhy: (page: string) => t('subscribe.footerWhy', { page }),
    footerUnsubscribe: t('subscribe.footerUnsubscribe'),
    // Webhook and chat subscriptions: the form's second part, its answers, a channel's first message.
    channelConfirmedBody: (page: string) => t('subscribe.channelConfirmedBody', { page }),
    webhookHeading: t('subscribe.webhookHeading'),
    webhookIntro: t('subscribe.webhookIntro'),
    webhookUrlLabel: t('subscribe.webhookUrlLabel'),
    contactEmailLabel: t('subscribe.contactEmailLabel'),
    webhookSubscribedTitle: t('subscribe.webhookSubscribedTitle'),
    webhookSecretBody: t('subscribe.webhookSecretBody'),
    channelSubscribedBody: t('subscribe.channelSubscribedBody'),
    webhookProblemTitle: t('subscribe.webhookProblemTitle'),
    /** A webhook or chat subscription asked of a page with an audience (e-mail only there). */
    privateEmailOnly: t('subscribe.privateEmailOnly'),
    webhookPausedBody: (page: string, host: string) => t('subscribe.webhookPausedBody', { page, host }),
    webhookProblems: {
      invalid: t('subscribe.webhookInvalid'),
      notHttps: t('subscribe.webhookNotHttps'),
      credentials: t('subscribe.webhookCredentials'),
      refused: t('subscribe.webhookRefused'),
      unresolvable: t('subscribe.webhookUnresolvable'),
      exists: t('subscribe.webhookExists'),
      unconfirmed: t('subscribe.webhookUnconfirmed'),
    },
  };
}

export type SubscriptionText = ReturnType<typeof words>;

const made = new WeakMap<Translator, SubscriptionText>();

/** The words in the translator's language (made once per translator: translators are cached too). */
export function subscriptionText(i18n: Translator): SubscriptionText {
  let text = made.get(i18n);
  if (!text) made.set(i18n, (text = words(i18n)));
  return text;
}
