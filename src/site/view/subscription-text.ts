/**
 * Every English word a visitor reads about e-mail subscriptions (the form, the answer pages, the
 * mails), in one place, so the message catalogs (issue 19) can take them over as they are.
 */
export const en = {
  // The form on the status page.
  formHeading: 'Get updates by e-mail',
  formIntro: 'We will e-mail you when an incident or maintenance affects this page. We send one confirmation e-mail first.',
  emailLabel: 'E-mail address',
  componentsSummary: 'Only some components (optional)',
  componentsHint: 'Leave all unticked to hear about everything.',
  subscribeButton: 'Subscribe',

  // Answer pages.
  checkInboxTitle: 'Check your inbox',
  checkInboxBody: 'If this address can receive updates for this page, we have sent it an e-mail. Open the link in it to confirm your subscription. The link works for 48 hours.',
  invalidAddressTitle: 'Please check the address',
  invalidAddressBody: 'That does not look like an e-mail address we can send to. Go back and try again.',
  tooManyTitle: 'Too many requests',
  tooManyBody: 'Please wait a while before trying again.',
  confirmTitle: 'Confirm your subscription',
  confirmBody: 'Press the button to start receiving e-mail updates for this page.',
  confirmButton: 'Confirm subscription',
  confirmedTitle: 'You are subscribed',
  confirmedBody: 'You will receive an e-mail when something changes on this page. Every e-mail has a link to unsubscribe.',
  linkInvalidTitle: 'This link no longer works',
  linkInvalidBody: 'It has expired, or it was already used. You can subscribe again from the status page.',
  manageTitle: 'Your e-mail updates',
  manageBody: 'Unsubscribe with one click, or choose which components you hear about.',
  unsubscribeButton: 'Unsubscribe',
  saveComponentsButton: 'Save my choice',
  unsubscribedTitle: 'You are unsubscribed',
  unsubscribedBody: 'Your address has been deleted. You will receive no more e-mails from this page.',
  savedTitle: 'Your choice is saved',
  savedBody: 'You will hear about the components you chose.',
  backToPage: 'Back to the status page',
  notFoundTitle: 'Page not found',
  notFoundBody: 'There is no status page here.',

  // Mails.
  confirmSubject: (page: string) => `Confirm your subscription to ${page}`,
  confirmMailBody: (page: string) => `Someone, probably you, asked to receive e-mail updates from the ${page} status page. To confirm, open this link within 48 hours and press the button:`,
  confirmMailIgnore: 'If this was not you, ignore this e-mail: you will receive nothing else.',
  subjects: {
    'incident-created': (title: string) => `New incident: ${title}`,
    'incident-updated': (title: string) => `Update: ${title}`,
    'incident-resolved': (title: string) => `Resolved: ${title}`,
    'maintenance-scheduled': (title: string) => `Maintenance scheduled: ${title}`,
    'maintenance-started': (title: string) => `Maintenance started: ${title}`,
    'maintenance-completed': (title: string) => `Maintenance completed: ${title}`,
  },
  statusLine: 'Status',
  impactLine: 'Impact',
  affectedLine: 'Affected',
  startedLine: 'Started',
  resolvedLine: 'Resolved',
  windowLine: 'Window',
  scheduledStatus: 'Scheduled',
  inProgressStatus: 'In progress',
  completedStatus: 'Completed',
  detailsLink: 'Details',
  footerWhy: (page: string) => `You receive this e-mail because you subscribed to updates from the ${page} status page.`,
  footerUnsubscribe: 'Unsubscribe or choose components',
} as const;
