'use strict';

// Small helpers the tool modules share.

/** A timestamp (Date, ms or ISO text) as ISO 8601 text. */
function time(t) {
  const d = t instanceof Date ? t : new Date(t);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Whole hours (one decimal) between `then` and `now`, both in ms or dates. */
function hoursSince(then, now = Date.now()) {
  const ms = now - new Date(then).getTime();
  return Math.max(0, Math.round(ms / 360_000) / 10);
}

/** "Home / Ground floor / Kitchen" for a zone, from the zones by ID. */
function zonePath(zone, zonesById) {
  const names = [];
  const seen = new Set();
  for (let z = zone; z && !seen.has(z.id); z = zonesById[z.parent]) {
    seen.add(z.id);
    names.unshift(z.name);
  }
  return names.join(' / ');
}

/** Case-insensitive: exact name first, then the first name containing the text. */
function byName(items, name, field = 'name') {
  const want = String(name).trim().toLowerCase();
  return items.find((i) => String(i[field]).toLowerCase() === want) ?? items.find((i) => String(i[field]).toLowerCase().includes(want)) ?? null;
}

/**
 * The one place where the assistant's reference to a zone, Flow, mood or
 * Logic variable becomes the item: by ID when given, else by name (exact,
 * then contained); null when none. `key` reads an item's {id, name}. A
 * name resolver (an entity index with "did you mean" on ambiguity) slots in
 * here; devices are looked up by ID in HomeyIO.device, which it would feed.
 */
function lookup(items, { id, name }, key = (i) => i) {
  if (id !== undefined) return items.find((i) => key(i).id === id) ?? null;
  if (name === undefined) return null;
  const named = items.map((item) => ({ item, name: key(item).name }));
  return byName(named, name)?.item ?? null;
}

module.exports = { time, hoursSince, zonePath, byName, lookup };
