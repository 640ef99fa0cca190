/** The theming screen's part of the console's one stylesheet (style.ts): the edit column beside the preview from 1000 px, stacked below that. */
export const THEMING_CSS = `
main:has(.theming){max-width:none}
.theming-columns{display:grid;gap:16px}
@media (min-width:1000px){.theming-columns{grid-template-columns:minmax(320px,440px) minmax(0,1fr);align-items:start}}
.frame-box{overflow:auto;border:1px solid var(--line);border-radius:6px;max-width:100%}
.frame-box iframe{display:block;border:0;background:#fff}
textarea.code{font-family:ui-monospace,monospace;min-height:200px}
ul.warnings{padding-inline-start:20px}
`;
