/**
 * The English words of the link previews (Open Graph and Twitter tags), the status card image and
 * the sitemap's neighbours, kept together so the message catalogs (issue 19) can take them over.
 * Status words themselves ("Partial outage", "Investigating") come from the view models.
 */
export const en = {
  /** og:description of a status page and its history: the banner's words as a sentence. */
  pageDescription: (pageName: string, status: string) => `Current status of ${pageName}: ${status}.`,
  /** Appended to the page description while incidents are open. */
  activeIncidents: (titles: readonly string[]) => (titles.length === 1 ? `Active incident: ${titles[0]}.` : `Active incidents: ${titles.join('; ')}.`),
  /** og:description of an incident permalink: status, title, then its latest update. */
  incidentDescription: (status: string, title: string, latest: string | null) => (latest ? `${status}: ${title}. Latest update: ${latest}` : `${status}: ${title}.`),
  /** Alt text of the card image. */
  cardAlt: (pageName: string, status: string) => `${pageName}: ${status}`,
  cardActiveHeading: 'Active incidents',
  cardMore: (count: number) => `and ${count} more`,
  /** The time of the data on the card (the time the page's data last changed). */
  cardUpdated: (time: string) => `Updated ${time}`,
  /** The stale notice on the card, in the page's own words. */
  cardStale: (time: string) => `Live data unavailable — status as of ${time}`,
} as const;
