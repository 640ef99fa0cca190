/**
 * The console's one stylesheet, inline and allowed by its hash in the Content-Security-Policy (no
 * other style; no script but the passkey forms' file on their pages). Made for a 375 px screen
 * first; light and dark follow the system; logical properties so right-to-left needs nothing more.
 */
import { createHash } from 'node:crypto';
import { THEMING_CSS } from './theming-style.ts';

export const CONSOLE_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#4d4d4d;--line:#c4c4c4;--accent:#0b57d0;--accent-fg:#fff;--bad:#a50e0e;--box:#f3f4f6}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ededed;--muted:#b8b8b8;--line:#5a5a5a;--accent:#8ab4f8;--accent-fg:#0b0b0b;--bad:#ffb4ab;--box:#1f1f1f}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}
.skip{position:absolute;inset-inline-start:-999px}.skip:focus{inset-inline-start:8px;top:8px;background:var(--bg);padding:8px}
header{padding:12px 16px;border-block-end:1px solid var(--line)}
header p{margin:0;color:var(--muted);font-size:14px;overflow-wrap:anywhere}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:4px 16px;margin:8px 0 0;padding:0}
nav a{display:inline-block;padding:6px 0}
main{padding:16px;max-width:720px}
h1{font-size:22px;margin:0 0 12px}h2{font-size:18px;margin:20px 0 8px}
label,legend{display:block;font-weight:600;margin-block:12px 4px}
input[type=text],input[type=email],input[type=password],input[type=datetime-local],select,textarea{width:100%;font:inherit;padding:10px;border:1px solid var(--muted);border-radius:6px;background:var(--bg);color:var(--fg)}
textarea{min-height:120px}
fieldset{border:1px solid var(--line);border-radius:6px;margin:12px 0;padding:4px 12px 12px}
.check{display:flex;gap:8px;align-items:center;font-weight:400;margin:6px 0}
button{font:inherit;min-height:44px;padding:8px 16px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;margin-block-start:12px;margin-inline-end:8px}
button.quiet{background:transparent;color:var(--accent)}
.problem{color:var(--bad);font-weight:600}
.preview{border:2px dashed var(--line);border-radius:6px;padding:12px;background:var(--box)}
.preview pre{white-space:pre-wrap;overflow-wrap:anywhere;font:inherit;margin:0}.card-preview{margin:0}
ul.items{padding:0;list-style:none}ul.items li{border-block-end:1px solid var(--line);padding:8px 0}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{border-block-end:1px solid var(--line);padding:6px;text-align:start;vertical-align:top;overflow-wrap:anywhere}
.muted{color:var(--muted)}
form.inline{display:inline}
` + THEMING_CSS;

export const CONSOLE_CSS_HASH = `sha256-${createHash('sha256').update(CONSOLE_CSS).digest('base64')}`;
