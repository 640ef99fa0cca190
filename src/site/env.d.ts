/// <reference types="astro/client" />

/** A script minified at build time (src/site/scripts/minify-inline.ts). */
declare module '*?minified' {
  const source: string;
  export default source;
}

declare namespace App {
  interface Locals {
    /** The snapshot this request renders, or null when none can be served (503). */
    data: import('./data/snapshot-cache.ts').CachedSnapshot | null;
    /** Why no snapshot can be served, for the 503 page. */
    unavailable: { retryAfterSeconds: number } | null;
    /** The page whose custom domain this request came to, or null on the main host. */
    domainPage: import('../contract/index.ts').StatusPage | null;
    /** Hashes of the inline styles the page rendered, for the Content-Security-Policy. */
    cspStyles: string[];
    /** Where a static copy's subscription form posts (SITE_PUBLIC_URL), for form-action; null otherwise. */
    formOrigin: string | null;
    /** Who may frame the response: 'none', except the embeddable widget ('any'). */
    frameAncestors: import('./security/csp.ts').FrameAncestors;
    /** The path the site is published under: '' (the root), or the static exporter's base path, e.g. '/status'. */
    sitePath: string;
    /** The static exporter is asking (src/export/): the export index answers only then. */
    exporting: boolean;
    /** The language a page address named (/acme/de/ names 'de'; the middleware strips it), or null. */
    locale: import('./i18n/locales.ts').Locale | null;
    /** A preview for the console (src/site/preview/): the draft over the page, its theme and language; null for every visitor. */
    preview: import('./preview/preview-route.ts').PreviewState | null;
    /** A non-public page this request's visitor is of the audience of (src/site/private/), or null. */
    viewerPage: import('../contract/index.ts').StatusPage | null;
    /** That visitor's own links on the page (feed addresses, sign-out), in place of the public ones; null for everyone else. */
    viewerControls: import('./private/viewer-controls.ts').ViewerControls | null;
    /** The answer is for one visitor of a page with an audience: private, no-store, noindex. */
    privateView: boolean;
    /** The words and formats this response speaks: the site's default until a page is resolved. */
    i18n: import('./i18n/translator.ts').Translator;
  }
}
