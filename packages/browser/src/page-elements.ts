// What the agent and polling clients see of a real page: its visible interactive elements and
// headings, each with a role, an accessible name, a selector that finds it again, and its box.
import type { Page } from 'playwright-core';

export type PageElement = {
  selector: string;
  role: string;
  name: string;
  href: string | null;
  box: { x: number; y: number; width: number; height: number } | null;
};

/** Runs in the page (plain JavaScript: the DOM is not in this workspace's type library). */
const EXTRACT = `(() => {
  const limit = 200;
  const cssEscape = (v) => (window.CSS && CSS.escape ? CSS.escape(v) : v.replace(/[^a-zA-Z0-9_-]/g, '\\\\$&'));
  const roleOf = (el) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit;
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'input') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      return { checkbox: 'checkbox', radio: 'radio', number: 'spinbutton', search: 'searchbox',
        submit: 'button', button: 'button', reset: 'button', image: 'button', range: 'slider' }[t] || 'textbox';
    }
    return 'generic';
  };
  const text = (v) => (v || '').replace(/\\s+/g, ' ').trim();
  const nameOf = (el) => {
    const aria = el.getAttribute('aria-label');
    if (aria) return text(aria);
    const by = el.getAttribute('aria-labelledby');
    if (by) return text(by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' '));
    if (el.id) { const l = document.querySelector('label[for="' + cssEscape(el.id) + '"]'); if (l) return text(l.textContent); }
    const wrap = el.closest('label'); if (wrap && wrap !== el) return text(wrap.textContent);
    if (el.tagName === 'INPUT' && /^(submit|button)$/i.test(el.type)) return text(el.value);
    return text(el.textContent) || text(el.getAttribute('alt')) || text(el.getAttribute('placeholder')) || text(el.getAttribute('title')) || text(el.getAttribute('name'));
  };
  const selectorOf = (el) => {
    if (el.id && document.querySelectorAll('#' + cssEscape(el.id)).length === 1) return '#' + cssEscape(el.id);
    for (const attr of ['data-testid', 'name', 'aria-label']) {
      const v = el.getAttribute(attr);
      if (!v) continue;
      const s = el.tagName.toLowerCase() + '[' + attr + '="' + v.replace(/"/g, '\\\\"') + '"]';
      if (document.querySelectorAll(s).length === 1) return s;
    }
    const parts = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.documentElement; n = n.parentElement) {
      if (n.id && document.querySelectorAll('#' + cssEscape(n.id)).length === 1) { parts.unshift('#' + cssEscape(n.id)); break; }
      const same = Array.from(n.parentElement ? n.parentElement.children : []).filter((c) => c.tagName === n.tagName);
      parts.unshift(n.tagName.toLowerCase() + (same.length > 1 ? ':nth-of-type(' + (same.indexOf(n) + 1) + ')' : ''));
    }
    return parts.join(' > ');
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const query = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[contenteditable=true],h1,h2,h3';
  const out = [];
  for (const el of document.querySelectorAll(query)) {
    if (out.length >= limit) break;
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    out.push({ selector: selectorOf(el), role: roleOf(el), name: nameOf(el).slice(0, 200),
      href: el.tagName === 'A' ? el.href : null,
      box: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } });
  }
  return out;
})()`;

export async function pageElements(page: Page): Promise<PageElement[]> {
  return (await page.evaluate(EXTRACT)) as PageElement[];
}
