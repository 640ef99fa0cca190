/**
 * The English words of the link previews (Open Graph and Twitter tags), the status card image and
 * the sitemap's neighbours, kept together so the message catalogs (issue 19) can take them over.
 * Status words themselves ("Partial outage", "Investigating") come from the view models.
 */
export const en = {
  /** og:description of a status page: the banner's words as a sentence. */
  pageDescription: (pageName: string, status: string) => `Current status of ${pageName}: ${status}.`,
  /** Appended to the page description while incidents are open. */
  activeIncidents: (titles: readonly string[]) => (titles.length === 1 ? `Active incident: ${titles[0]}.` : `Active incidents: ${titles.join('; ')}.`),
  /** og:description of an incident permalink: status, title, then its latest update. */
  incidentDescription: (status: string, title: string, latest: string | null) => (latest ? `${status}: ${title}. Latest update: ${latest}` : `${status}: ${title}.`),
  /**
   * og:description of a month of history. Not the live status: a past month's page then stays
   * the same bytes until its own incidents change.
   */
  historyDescription: (pageName: string, month: string) => `Past incidents of ${pageName} in ${month}.`,
  /** Alt text of the card image on the status page, which changes with the status anyway. */
  cardAlt: (pageName: string, status: string) => `${pageName}: ${status}`,
  /** Alt text of the card image elsewhere (incidents, history), whose bytes must not follow the live status. */
  cardAltPlain: (pageName: string) => `Current status of ${pageName}`,
  cardActiveHeading: 'Active incidents',
  cardMore: (count: number) => `and ${count} more`,
  /** The time of the data on the card (the time the page's data last changed). */
  cardUpdated: (time: string) => `Updated ${time}`,
  /** The stale notice on the card, in the page's own words. */
  cardStale: (time: string) => `Live data unavailable — status as of ${time}`,
} as const;
