import type { Organization, StatusPage } from '../../contract/index.ts';
import { brandColorVariables, embedCustomCss, safeBrandColor, safeLogoUrl } from '../lib/css.ts';
import { sanitizeOwnerHtml } from '../lib/sanitize.ts';
import type { BrandingView } from './types.ts';
import { translator, type Translator } from '../i18n/translator.ts';

function ownerHtml(value: string | null | undefined): string | null {
  const html = sanitizeOwnerHtml(value).trim();
  return html ? html : null;
}

/**
 * The page's branding with every owner value checked: hex brand color or the theme's own,
 * http(s) or site-path logo (the page's, else the organization's), sanitized header/footer HTML, and owner
 * CSS that cannot leave its <style> element.
 */
export function brandingView(page: StatusPage, organization: Organization | null, homeHref: string, i18n: Translator = translator()): BrandingView {
  const brandColor = safeBrandColor(page.brandColor);
  const customCss = embedCustomCss(page.customCss).trim();
  return {
    pageName: page.name,
    logoUrl: safeLogoUrl(page.logoUrl) ?? safeLogoUrl(organization?.logo),
    logoAlt: i18n.t('layout.logoAlt', { name: page.name }),
    headerHtml: ownerHtml(page.headerText),
    footerHtml: ownerHtml(page.footerText),
    brandCss: brandColor ? brandColorVariables(brandColor) : null,
    customCss: customCss ? customCss : null,
    homeHref,
  };
}

/**
 * The exact text of the page's one owner <style> element: brand color, then owner CSS, so the
 * owner's rules win. The layout renders it and the route hashes the same string for the CSP.
 */
export function ownerStyleText(branding: Pick<BrandingView, 'brandCss' | 'customCss'> | null): string | null {
  if (!branding) return null;
  const brandRule = branding.brandCss ? `:root{${branding.brandCss}}` : null;
  const text = [brandRule, branding.customCss].filter((part): part is string => Boolean(part)).join('\n');
  return text ? text : null;
}
