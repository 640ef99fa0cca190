/**
 * Every word a visitor reads about e-mail subscriptions (the form, the answer pages, the mails),
 * from the message catalogs (`subscribe.*`, i18n/messages/). `subscriptionText(i18n)` says them in
 * one language; `en` is English, which the answer pages and mails still use (to move them to the
 * page's default language, hand them `subscriptionText(translator(pageLanguage(…).locale))`).
 */
import { translator, type Translator } from '../i18n/translator.ts';

export function subscriptionText(i18n: Translator) {
  const t = i18n.t;
  return {
    // The form on the status page.
    formHeading: t('subscribe.formHeading'),
    formIntro: t('subscribe.formIntro'),
    emailLabel: t('subscribe.emailLabel'),
    componentsSummary: t('subscribe.componentsSummary'),
    componentsHint: t('subscribe.componentsHint'),
    subscribeButton: t('subscribe.subscribeButton'),

    // Answer pages.
    checkInboxTitle: t('subscribe.checkInboxTitle'),
    checkInboxBody: t('subscribe.checkInboxBody'),
    invalidAddressTitle: t('subscribe.invalidAddressTitle'),
    invalidAddressBody: t('subscribe.invalidAddressBody'),
    tooManyTitle: t('subscribe.tooManyTitle'),
    tooManyBody: t('subscribe.tooManyBody'),
    unavailableTitle: t('subscribe.unavailableTitle'),
    unavailableBody: t('subscribe.unavailableBody'),
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
    subjects: {
      'incident-created': (title: string) => t('subscribe.subject.incidentCreated', { title }),
      'incident-updated': (title: string) => t('subscribe.subject.incidentUpdated', { title }),
      'incident-resolved': (title: string) => t('subscribe.subject.incidentResolved', { title }),
      'maintenance-scheduled': (title: string) => t('subscribe.subject.maintenanceScheduled', { title }),
      'maintenance-started': (title: string) => t('subscribe.subject.maintenanceStarted', { title }),
      'maintenance-completed': (title: string) => t('subscribe.subject.maintenanceCompleted', { title }),
      'monitor-down': (title: string) => t('subscribe.subject.monitorDown', { title }),
    },
    monitorDownBody: t('subscribe.monitorDownBody'),
    downStatus: t('health.down'),
    checkedLine: t('subscribe.checkedLine'),
    statusLine: t('subscribe.statusLine'),
    impactLine: t('subscribe.impactLine'),
    affectedLine: t('subscribe.affectedLine'),
    startedLine: t('subscribe.startedLine'),
    resolvedLine: t('subscribe.resolvedLine'),
    windowLine: t('subscribe.windowLine'),
    scheduledStatus: t('maintenance.upcoming'),
    inProgressStatus: t('maintenance.running'),
    completedStatus: t('maintenance.completed'),
    detailsLink: t('subscribe.detailsLink'),
    footerWhy: (page: string) => t('subscribe.footerWhy', { page }),
    footerUnsubscribe: t('subscribe.footerUnsubscribe'),
  };
}

export const en = subscriptionText(translator());
