// A tiny element builder. Text always goes in as text nodes (never innerHTML): commands, reasons
// and denial notes come from agents and people, and must not become markup.
export type Child = Node | string | number | null | undefined | false;
type Attr = string | number | boolean | null | undefined | ((event: any) => void);

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, Attr> | null,
  ...children: Array<Child | Child[]>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') element.className = String(value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Array<Child | Child[]>): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(
      typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
    );
  }
}

export function clear(element: Element): void {
  while (element.firstChild) element.removeChild(element.firstChild);
}

/** "3 min ago" for recent times, the date otherwise. */
export function ago(iso: string | null | undefined): string {
  if (!iso) return '—';
  const seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleString();
}

/** A transient message at the bottom of the screen (role=status, so screen readers hear it). */
export function toast(message: string, kind: 'ok' | 'error' = 'ok'): void {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', role: 'status' });
    document.body.appendChild(box);
  }
  const item = h('div', { class: `toast toast-${kind}` }, message);
  box.appendChild(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}
