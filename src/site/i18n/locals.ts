import { translator, type Translator } from './translator.ts';

/**
 * The translator a component speaks with: the one the route settled in `Astro.locals`, or
 * English when a component is rendered alone (component tests render without locals).
 */
export function i18nOf(locals: Partial<App.Locals> | undefined): Translator {
  return locals?.i18n ?? translator();
}
