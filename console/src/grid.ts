// The frame every list page shares: a heading, then a table (class `grid`) with its column
// headings. The caller fills the body it gets back, again on each live update.
import { clear, h } from './dom.ts';

export function grid(columns: readonly string[], body: HTMLTableSectionElement, className = 'grid'): HTMLTableElement {
  return h(
    'table',
    { class: className },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        columns.map((column) => h('th', null, column)),
      ),
    ),
    body,
  );
}

/** Empties `root`, puts the page heading and an empty grid in it; returns the grid's body. */
export function listPage(root: HTMLElement, title: string, columns: readonly string[]): HTMLTableSectionElement {
  clear(root);
  const body = h('tbody');
  root.append(h('div', { class: 'page-head' }, h('h1', null, title)), grid(columns, body));
  return body;
}
