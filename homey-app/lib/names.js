'use strict';

// Names where the tools take IDs. Wherever a tool takes a zone, device,
// Flow or mood by ID, the assistant may give its name as people say it
// ("Begane grond", "de leeslamp in de studeerkamer", "the kitchen"): the
// package's EntityIndex decides what it means (folding, Dutch, English and
// German stems, compounds, the zone a device is in, typos) and whether it is
// ambiguous. This module only feeds it the home the assistant may see and
// puts the ID it found in the argument, or answers the call with the
// index's "did you mean" when the name says more than one thing.

const { EntityIndex, toolFailure } = require('mcp-switchboard/full');
const { checkFlow, checkMood } = require('./guard');

/** The arguments that take a thing of the home by ID (or a list of IDs), whatever the tool, and its kind. */
const NAMED = {
  zoneId: 'zone',
  deviceId: 'device',
  deviceIds: 'device',
  device_ids: 'device',
  flowId: 'flow',
  moodId: 'mood',
};

/** Per tool, an argument that names what another takes by ID (read as that one). */
const NAME_FOR = {
  start_flow: { flowName: 'flowId' },
  set_mood: { moodName: 'moodId' },
};

/** Each kind as the answers say it, and where the assistant finds its IDs (when a name matches nothing). */
const WORD = { zone: 'zone', device: 'device', flow: 'Flow', mood: 'mood' };
const LISTED_BY = { zone: 'get_home_structure', device: 'get_home_structure', flow: 'get_flow_overview', mood: 'get_mood_details' };

/** Matches offered when a name is ambiguous. */
const CHOICES = 5;
/** Unknown device values read one by one, at most (more: the whole home is read). */
const PROBE = 10;
/**
 * How long an index serves names without reading the home again (an
 * assistant names several things in a row; each read is the whole device
 * list). A name it finds nothing or more than one thing for reads the home
 * again at once; only a name it finds one thing for is taken from it.
 */
const FRESH_MS = 10_000;

class Names {
  /** @param {{io: import('./homey-io').HomeyIO}} options */
  constructor({ io }) {
    this.io = io;
    this.index = null;
    this.text = '';
    /** The IDs of the last home read, by kind, hidden things' too (a value among them is taken as an ID without reading the home). */
    this.ids = null;
    /** When the home was last read (ms). */
    this.readAt = 0;
    /** Device IDs the hub answered for (probe()). */
    this.seen = new Set();
  }

  /**
   * What the assistant may see of the home, as the index reads it (`things`:
   * the visible zones and devices, the Flows and moods that touch no hidden
   * zone or device, the same rules as the tools that list them), and every
   * ID by kind (`ids`).
   */
  async read() {
    const api = await this.io.api();
    const [home, simple, advanced, moods] = await Promise.all([
      this.io.visibility(),
      api.flow.getFlows().catch(() => ({})),
      api.flow.getAdvancedFlows().catch(() => ({})),
      api.moods.getMoods().catch(() => ({})),
    ]);
    const flowsById = new Map([...Object.values(simple ?? {}), ...Object.values(advanced ?? {})].map((f) => [f.id, f]));
    // hidden, not refused: every device counts as allowed here
    const seeing = { ...home, flowsById, allowed: new Set(home.devicesById.keys()) };
    const shown = (check) => {
      try {
        return !check().hidden;
      } catch {
        return true;
      }
    };
    const zones = new Set(home.zones.map((z) => z.id));
    // every ID, hidden things' too: an ID goes to the tool as it is, which answers for a hidden thing as for an unknown one
    const ids = {
      zone: new Set(Object.keys(home.zonesById)),
      device: new Set(home.devicesById.keys()),
      flow: new Set(flowsById.keys()),
      mood: new Set(Object.values(moods ?? {}).map((m) => m.id)),
    };
    const things = {
      zones: home.zones.map((z) => ({ id: z.id, name: z.name, parent: z.parent ?? null })),
      devices: home.devices.map((d) => ({ id: d.id, name: d.name, zone: d.zone ?? null, class: d.class ?? null, virtualClass: d.virtualClass ?? null })),
      flows: [...flowsById.values()].filter((f) => shown(() => checkFlow(f, seeing))).map((f) => ({ id: f.id, name: f.name })),
      moods: Object.values(moods ?? {})
        .filter((m) => (!m.zone || zones.has(m.zone)) && shown(() => checkMood(m, seeing)))
        .map((m) => ({ id: m.id, name: m.name, zone: m.zone ?? null })),
    };
    return { things, ids };
  }

  /**
   * Device IDs read one by one (a device is 2–3 KB, the whole list 300 KB
   * on a 150-device home), when there are a few: those the hub knows are
   * IDs, and the home's names need not be read for them.
   */
  async probe(values) {
    if (values.length === 0 || values.length > PROBE) return;
    const api = await this.io.api();
    const found = await Promise.all(values.map((id) => api.devices.getDevice({ id }).then(() => true, (err) => {
      if (err.statusCode === 404) return false;
      throw err;
    })));
    values.forEach((id, i) => found[i] && this.seen.add(id));
  }

  /** Whether the index was read within FRESH_MS (and the settings have not changed since). */
  recent() {
    return this.index !== null && Date.now() - this.readAt < FRESH_MS;
  }

  /** The settings changed (hidden zones, say): the next name reads the home again. */
  forget() {
    this.readAt = 0;
  }

  /** Reads the home again; a new index when its names changed. */
  async refresh() {
    const { things, ids } = await this.read();
    this.readAt = Date.now();
    this.ids = ids;
    const text = JSON.stringify(things);
    if (text === this.text && this.index) return;
    const index = new EntityIndex(text);
    this.index?.free();
    this.index = index;
    this.text = text;
    this.seen.clear();
  }

  /**
   * A tool's arguments with each name of a thing replaced by its ID, or a
   * tool failure: nothing of that name, or a name that fits more than one
   * thing ("did you mean", the matches with where they are). IDs pass as
   * they are; the home is read only for a value that is no ID seen before,
   * and names are resolved on the index of the last read when it is recent.
   */
  async resolve(tool, args) {
    const out = { ...args };
    for (const [from, to] of Object.entries(NAME_FOR[tool] ?? {})) {
      if (typeof out[from] === 'string' && out[to] === undefined) {
        out[to] = out[from];
        delete out[from];
      }
    }
    const wanted = [];
    for (const [arg, kind] of Object.entries(NAMED)) {
      const value = out[arg];
      if (typeof value === 'string') wanted.push({ arg, kind, value });
      else if (Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && wanted.push({ arg, i, kind, value: v }));
    }
    if (wanted.length === 0) return { args: out };
    const known = ({ kind, value }) => this.ids?.[kind]?.has(value) || (kind === 'device' && this.seen.has(value));
    const unknown = () => wanted.filter((w) => !known(w));
    let fresh = false;
    if (unknown().length > 0 && !this.recent()) {
      await this.probe(unknown().filter((w) => w.kind === 'device').map((w) => w.value));
      if (unknown().length > 0) {
        await this.refresh();
        fresh = true;
      }
    }
    for (const w of wanted) {
      if (known(w)) continue;
      let r = this.index.resolve(w.value, { kind: w.kind, limit: CHOICES });
      if ((r.matches.length === 0 || r.ambiguous) && !fresh) {
        // the index of a few seconds ago finds nothing, or more than one: a thing added or renamed since?
        await this.refresh();
        fresh = true;
        if (known(w)) continue;
        r = this.index.resolve(w.value, { kind: w.kind, limit: CHOICES });
      }
      const said = JSON.stringify(w.value);
      if (r.ambiguous) {
        return {
          failure: toolFailure(`${said} may be more than one ${WORD[w.kind]} (${r.note}): which one? Call again with its ID, or the name with its zone.`, {
            didYouMean: r.matches.map(({ id, name, zone }) => ({ id, name, ...(zone ? { zone } : {}) })),
          }),
        };
      }
      if (r.matches.length === 0) {
        // in a list (a filter), an unknown value is left to the tool, which leaves unknown IDs out
        if (w.i !== undefined) continue;
        return { failure: toolFailure(`no ${WORD[w.kind]} with ID or name ${said}`, { hint: `${LISTED_BY[w.kind]} lists the ${WORD[w.kind]}s` }) };
      }
      const id = r.matches[0].id;
      if (w.i === undefined) out[w.arg] = id;
      else out[w.arg] = out[w.arg].map((v, i) => (i === w.i ? id : v));
    }
    return { args: out };
  }

  close() {
    this.index?.free();
    this.index = null;
    this.text = '';
    this.ids = null;
    this.seen.clear();
  }
}

module.exports = { Names, NAMED, NAME_FOR };
