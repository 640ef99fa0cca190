import type { Translator } from './translator.ts';

/**
 * The words enhance.js writes into the refresh slot, as data attributes of the slot: the one
 * inline script stays the same bytes (one CSP hash) in every language.
 */
export function refreshWords(i18n: Translator, seconds: number): Record<string, string> {
  return {
    'data-every': i18n.t('refresh.every', { seconds }),
    'data-paused': i18n.t('refresh.paused'),
    'data-pause': i18n.t('refresh.pause'),
    'data-resume': i18n.t('refresh.resume'),
  };
}
