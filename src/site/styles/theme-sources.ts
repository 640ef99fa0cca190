/**
 * The text of the three theme files (themes/), as the site's stylesheet embeds them: one import,
 * shared by the stylesheet and the theming engine's contrast check (src/site/theming/), so the
 * colours it measures are the colours visitors get.
 */
import defaultTokens from '../../../themes/default.css?inline';
import darkTokens from '../../../themes/dark.css?inline';
import highContrastTokens from '../../../themes/high-contrast.css?inline';
import type { ThemeTexts } from '../../../themes/contrast.ts';

export const THEME_TEXTS: ThemeTexts = { default: defaultTokens, dark: darkTokens, highContrast: highContrastTokens };
