/**
 * The English words drawn on the status card image. The preview tags' words are in the message
 * catalogs (share.*, issue 19); the card stays English because its one font (DejaVu Sans, for the
 * same bytes everywhere) has no CJK glyphs: moving it needs a font per script first.
 */
export const en = {
  cardActiveHeading: 'Active incidents',
  cardMore: (count: number) => `and ${count} more`,
  /** The time of the data on the card (the time the page's data last changed). */
  cardUpdated: (time: string) => `Updated ${time}`,
  /** The stale notice on the card, in the page's own words. */
  cardStale: (time: string) => `Live data unavailable — status as of ${time}`,
} as const;
