/**
 * Words the CLI puts on a public page (visitors read them), kept together so they can move into
 * the message catalogs of issue 19.
 */
export const en = {
  /** The first timeline entry of an incident opened without --message or a template message. */
  defaultIncidentMessage: 'We are investigating this issue.',
  /** The timeline entry of `incident resolve` without --message. */
  defaultResolvedMessage: 'This incident has been resolved.',
} as const;
