// Pretty-printed JSON whose lines know their JSON Pointer, so that what the
// package reports at a pointer (a loss, a coercion, a validation error) is
// shown at its place: the line is marked and the notes follow it. A pointer
// to a place the value does not have (a keyword added, a member missing) is
// shown at its nearest ancestor that exists.
import { h } from './dom.mjs';

/** @typedef {{ kind: string, label: string, text: string }} Mark */

/** A JSON Pointer's reference token, escaped. */
const token = (key) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The nearest pointer of `known` at or above `pointer`.
 * @param {string} pointer
 * @param {Set<string>} known
 */
function nearest(pointer, known) {
  let p = pointer;
  while (p && !known.has(p)) p = p.slice(0, p.lastIndexOf('/'));
  return p;
}

/**
 * Every pointer the value has (its members' and items', at any depth).
 * @param {unknown} value
 * @param {string} at
 * @param {Set<string>} into
 */
function pointers(value, at, into) {
  into.add(at);
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) pointers(v, `${at}/${token(k)}`, into);
  }
  return into;
}

/**
 * `value` pretty-printed (two spaces) in a <pre>, one block per line, with `marks` (JSON Pointer →
 * marks) shown at their places; a mark whose place the value lacks says its pointer.
 * @param {unknown} value
 * @param {{ marks?: Map<string, Mark[]>, label?: string }} [options]
 * @returns {HTMLElement}
 */
export function jsonView(value, { marks = new Map(), label } = {}) {
  const known = pointers(value, '', new Set());
  /** @type {Map<string, Mark[]>} marks by the line that shows them */
  const at = new Map();
  for (const [pointer, list] of marks) {
    const line = nearest(pointer, known);
    const shown = list.map((m) => (line === pointer ? m : { ...m, text: `${m.text} (at ${pointer || '/'})` }));
    at.set(line, [...(at.get(line) ?? []), ...shown]);
  }
  const pre = h('pre', { class: 'json', tabIndex: 0, 'aria-label': label ?? 'JSON' });
  /**
   * @param {string} indent
   * @param {string | null} key
   * @param {unknown} v
   * @param {string} pointer
   * @param {boolean} last
   */
  const write = (indent, key, v, pointer, last) => {
    const head = key === null ? indent : `${indent}${JSON.stringify(key)}: `;
    const comma = last ? '' : ',';
    const lineMarks = at.get(pointer);
    const line = (text) => {
      const el = h('span', { class: 'l', dataset: { pointer } }, text);
      if (lineMarks) el.classList.add('marked', ...new Set(lineMarks.map((m) => `mark-${m.kind}`)));
      pre.append(el);
      if (lineMarks) {
        for (const m of lineMarks) {
          pre.append(h('span', { class: `note note-${m.kind}`, dataset: { pointer } }, `${indent}  `, h('b', { text: m.label }), ` ${m.text}`));
        }
      }
    };
    if (v !== null && typeof v === 'object') {
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      if (entries.length === 0) return line(`${head}${open}${close}${comma}`);
      line(`${head}${open}`);
      entries.forEach(([k, x], i) => write(`${indent}  `, Array.isArray(v) ? null : k, x, `${pointer}/${token(k)}`, i === entries.length - 1));
      pre.append(h('span', { class: 'l' }, `${indent}${close}${comma}`));
    } else {
      line(`${head}${JSON.stringify(v) ?? 'null'}${comma}`);
    }
  };
  write('', null, value, '', true);
  return pre;
}

/**
 * Adds a mark at a pointer of a marks map.
 * @param {Map<string, Mark[]>} marks
 * @param {string} pointer
 * @param {Mark} mark
 */
export function addMark(marks, pointer, mark) {
  marks.set(pointer, [...(marks.get(pointer) ?? []), mark]);
}
