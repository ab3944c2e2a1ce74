// Small DOM helpers shared by the panels: element creation, a panel's
// status and error lines, and a pause that lets the page paint between
// long computations.

/**
 * Makes an element: `attrs` are properties (`text`, `class`, `on<event>`, `dataset`) or attributes
 * (anything with a dash, and `for`, `role`); `children` are nodes or strings (null and false skipped).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k.includes('-') || k === 'for' || k === 'role') el.setAttribute(k, v === true ? '' : String(v));
    else el[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * `n` and the word, plural when `n` is not 1 (`plural(2, 'tool')` is "2 tools").
 * @param {number} n
 * @param {string} one
 * @param {string} [many]
 */
export const plural = (n, one, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** Resolves after the browser had a chance to paint and handle input. */
export const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** One line of text for an error thrown by the package (its code and pointer) or anything else. */
export function errorText(e) {
  if (e && typeof e === 'object' && 'message' in e) {
    const code = typeof e.code === 'string' ? `${e.code}: ` : '';
    const at = typeof e.pointer === 'string' && e.pointer && !e.message.includes(e.pointer) ? ` (at ${e.pointer})` : '';
    return `${code}${e.message}${at}`;
  }
  return String(e);
}

/**
 * A place where an operation reports: a status line, and an error line in red that the next success
 * clears. `clear` removes the operation's old output when it fails.
 */
export class Outcome {
  /**
   * @param {{ clear?: () => void, id?: string }} [options]
   */
  constructor({ clear, id } = {}) {
    this.status = h('p', { class: 'status', role: 'status' });
    this.error = h('p', { class: 'error', role: 'alert', hidden: true });
    this.el = h('div', { class: 'outcome', id }, this.status, this.error);
    this.clear = clear;
  }

  /** @param {string} text */
  ok(text) {
    this.error.hidden = true;
    this.error.textContent = '';
    this.status.textContent = text;
  }

  /** @param {string} text a progress line (the error stays until a success) */
  busy(text) {
    this.status.textContent = text;
  }

  /**
   * @param {unknown} e
   * @param {string} [what] what failed, said before the error
   */
  fail(e, what) {
    this.clear?.();
    this.status.textContent = '';
    this.error.textContent = what ? `${what}: ${errorText(e)}` : errorText(e);
    this.error.hidden = false;
  }
}

/**
 * Runs `fn` when Ctrl+Enter or Cmd+Enter is pressed in `el` (a textarea: plain Enter is a new line).
 * @param {HTMLElement} el
 * @param {() => void} fn
 */
export function onSubmitKey(el, fn) {
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      fn();
    }
  });
}
