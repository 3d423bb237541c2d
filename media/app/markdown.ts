// Model text → safe DOM. markdown-it with raw HTML disabled, then DOMPurify with a small allow-list, then a
// pass over links: http(s) links are kept (clicks are intercepted and sent to the host as openLink), relative
// paths become openFile links, every other scheme (javascript:, data:, vscode:, file:, mailto: …) is unwrapped
// to plain text. Nothing produced here is ever navigated by the webview itself.
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'strong', 'em', 'b', 'i', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'thead', 'tbody', 'tr', 'th', 'td',
];
// No `style` (blocked by the CSP anyway), no `src`, no event handlers: DOMPurify drops everything else.
const ALLOWED_ATTR = ['href', 'title', 'start'];

/** Link kinds the panel understands. */
export type LinkTarget = { kind: 'external'; href: string } | { kind: 'file'; path: string } | null;

/** Classifies an href as written in the markup (not the resolved `a.href`). */
export function classifyHref(raw: string | null): LinkTarget {
  if (!raw) return null;
  const href = raw.trim();
  // Anything with a scheme: only http(s) survives.
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href);
  if (scheme) {
    const s = scheme[1].toLowerCase();
    if (s !== 'http' && s !== 'https') return null;
    try {
      const u = new URL(href);
      return u.username || u.password ? null : { kind: 'external', href: u.toString() };
    } catch {
      return null;
    }
  }
  // Protocol-relative URLs, fragments, queries and absolute paths are not workspace files.
  if (href.startsWith('//') || href.startsWith('#') || href.startsWith('?') || href.startsWith('/') || href.startsWith('\\')) return null;
  // Control characters or backslash tricks: refuse. Otherwise a workspace-relative path (the host re-checks it).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(href)) return null;
  const query = href.search(/[?#]/);
  let path = query === -1 ? href : href.slice(0, query);
  try {
    path = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (!path || path.split('/').includes('..')) return null;
  return { kind: 'file', path };
}

/** Replaces an element by its children (keeps the text, drops the element). */
function unwrap(el: Element): void {
  const parent = el.parentNode;
  if (!parent) return;
  while (el.firstChild) parent.insertBefore(el.firstChild, el);
  parent.removeChild(el);
}

/** Post-processes sanitised markup: classifies every link, unwrapping the ones the panel will not follow. */
function finishLinks(root: DocumentFragment | HTMLElement): void {
  for (const a of Array.from(root.querySelectorAll('a'))) {
    const target = classifyHref(a.getAttribute('href'));
    if (!target) {
      unwrap(a);
      continue;
    }
    a.classList.add('cape-link');
    if (target.kind === 'external') {
      a.setAttribute('href', target.href);
      a.dataset.external = target.href;
      a.title = target.href;
    } else {
      a.setAttribute('href', '#');
      a.dataset.file = target.path;
      a.title = `Open ${target.path}`;
    }
  }
}

/** Sanitises an HTML string into a fragment (never assigned with innerHTML to a live element unsanitised). */
function sanitizeToFragment(html: string): DocumentFragment {
  const frag = DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  }) as unknown as DocumentFragment;
  finishLinks(frag);
  return frag;
}

/** Renders block markdown (paragraphs, lists, code…) into a fresh element with class `md`. */
export function renderMarkdown(text: string, tag: 'div' | 'span' = 'div'): HTMLElement {
  const el = document.createElement(tag);
  el.className = 'md';
  el.appendChild(sanitizeToFragment(md.render(text)));
  return el;
}

/** Renders a one-line string as inline markdown (no surrounding paragraph). */
export function renderInline(text: string): HTMLElement {
  if (text.includes('\n')) return renderMarkdown(text);
  const el = document.createElement('span');
  el.className = 'md md-inline';
  el.appendChild(sanitizeToFragment(md.renderInline(text)));
  return el;
}
