// The chat panel's HTML page. Pure (no `vscode` import): the host passes the webview's cspSource and the
// `asWebviewUri` strings; tests call it with loopback URLs.
import { PANEL_ROOT_ID } from './protocol';

export interface PanelHtmlOptions {
  /** `webview.cspSource` (the origin allowed for styles, fonts and images). */
  cspSource: string;
  /** A fresh random nonce per render (base64/hex, at least 16 characters); only the app script carries it. */
  nonce: string;
  /** dist/webview.js as a webview URI. */
  scriptUri: string;
  /** dist/webview-style.css as a webview URI. */
  styleUri: string;
  /** dist/codicons/codicon.css as a webview URI. */
  codiconsUri: string;
  /** Page title (screen readers announce it); default "CAPE". */
  title?: string;
  /** BCP-47 language of the UI chrome; default "en". */
  lang?: string;
}

/** Escapes for a double-quoted attribute (every attribute below is double-quoted; `'` stays readable in the CSP). */
function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Renders the panel page: strict CSP (`default-src 'none'`, the app script allowed by nonce only, no inline
 * styles), the codicon and app stylesheets, the root element the app renders into, and the app script.
 * Throws on a nonce or cspSource that could break out of the CSP header.
 */
export function renderPanelHtml(opts: PanelHtmlOptions): string {
  const { cspSource, nonce, scriptUri, styleUri, codiconsUri } = opts;
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) {
    throw new Error('renderPanelHtml: the nonce must be at least 16 base64/hex characters (generate one per render)');
  }
  // Quotes are legitimate here: the web (code-server, vscode.dev) cspSource is "'self' https://*.vscode-cdn.net".
  // A `;` would start a new directive, and `"`, `<`, `>` or a line break could leave the attribute.
  if (!cspSource || /[;"<>\r\n]/.test(cspSource)) {
    throw new Error(`renderPanelHtml: invalid cspSource ${JSON.stringify(cspSource)} (pass webview.cspSource)`);
  }
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
  const title = escapeAttr(opts.title ?? 'CAPE');
  const lang = escapeAttr(opts.lang ?? 'en');
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escapeAttr(codiconsUri)}">
  <link rel="stylesheet" href="${escapeAttr(styleUri)}">
  <title>${title}</title>
</head>
<body>
  <div id="${PANEL_ROOT_ID}" class="cape-app"></div>
  <script nonce="${escapeAttr(nonce)}" src="${escapeAttr(scriptUri)}"></script>
</body>
</html>
`;
}
