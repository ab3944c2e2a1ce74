'use strict';

// Flows made by talking. The assistant finds the cards the hub offers
// (get_flow_cards: the Web API's trigger, condition and action card lists)
// and makes or changes a Flow or Advanced Flow from them (manage_flow). A new
// Flow is always made disabled, in the folder "AI" (made when missing); the
// owner, or the assistant in a later call, enables it. Each write is read
// back and compared with what was sent. A dry run checks everything and
// shows what would be made without writing. Deleting is allowed only for
// Flows the app made (their IDs are kept in the settings). Writing Flows
// needs the homey.flow permission, which Homey gives apps' tokens not: it
// goes through the personal API key.
//
// The card arguments are checked against the card's own argument list,
// restated as a JSON Schema for the package's validator (as capability.js
// does for capability values). A Flow that would act on a protected device
// or touch a hidden one is refused as when it is started (lib/guard.js).

const { randomUUID } = require('crypto');
const { toolFailure, validateArguments } = require('mcp-switchboard/full');

const { checkFlow, splitCardId } = require('../guard');
const { NotFoundError } = require('../homey-io');

const FOLDER = 'AI';
const MADE_KEY = 'madeFlows';
/** Tokens ("[[number1]]") may stand where a value goes. */
const TOKEN = { type: 'string', pattern: '^\\[\\[[^\\]]+\\]\\]$' };

/** One card argument's value rules as JSON Schema (Homey's argument types). */
function argumentSchema(arg) {
  switch (arg.type) {
    case 'number':
    case 'range': {
      const n = { type: 'number' };
      if (typeof arg.min === 'number') n.minimum = arg.min;
      if (typeof arg.max === 'number') n.maximum = arg.max;
      return { anyOf: [n, TOKEN] };
    }
    case 'checkbox':
      return { anyOf: [{ type: 'boolean' }, TOKEN] };
    case 'dropdown':
      return Array.isArray(arg.values) && arg.values.length ? { enum: arg.values.map((v) => v.id) } : { type: 'string' };
    case 'device':
    case 'autocomplete':
      return { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    default:
      return { type: 'string' };
  }
}

/** The card's argument list as the inputSchema of its `args`. */
function argsSchema(card) {
  const properties = {};
  const required = [];
  for (const arg of Array.isArray(card.args) ? card.args : []) {
    if (!arg || typeof arg.name !== 'string') continue;
    properties[arg.name] = argumentSchema(arg);
    if (arg.required !== false) required.push(arg.name);
  }
  return { type: 'object', properties, additionalProperties: false, ...(required.length ? { required } : {}) };
}

/** A card for the assistant: its ID, kind, title, owner and arguments. */
function describeCard(card, kind) {
  return {
    id: card.id,
    type: kind,
    title: card.titleFormatted ?? card.title ?? card.id,
    owner: card.ownerUri ?? splitCardId(card.id).owner,
    args: (Array.isArray(card.args) ? card.args : []).filter((a) => a && a.name).map((a) => ({
      name: a.name,
      type: a.type,
      ...(a.title ? { title: typeof a.title === 'object' ? a.title.en ?? Object.values(a.title)[0] : a.title } : {}),
      ...(Array.isArray(a.values) ? { values: a.values.map((v) => v.id) } : {}),
      ...(typeof a.min === 'number' ? { min: a.min } : {}),
      ...(typeof a.max === 'number' ? { max: a.max } : {}),
      ...(a.required === false ? { optional: true } : {}),
    })),
  };
}

/** Only the fields a comparison looks at, in a fixed order. */
function comparable(card) {
  return { id: card.id, args: card.args ?? {}, ...(card.inverted ? { inverted: true } : {}) };
}

/** The differences between what was sent and what the hub holds: ["actions/0/args", ...]. */
function differences(sent, stored, advanced) {
  const out = [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  for (const key of ['name', 'enabled', 'folder']) if (key in sent && !same(sent[key], stored?.[key] ?? null)) out.push(key);
  if (advanced) {
    for (const [key, card] of Object.entries(sent.cards ?? {})) {
      const got = stored?.cards?.[key];
      if (!got) out.push(`cards/${key}`);
      else if (!same(comparable(card), comparable(got)) || !same(card.outputSuccess ?? null, got.outputSuccess ?? null) || !same(card.outputTrue ?? null, got.outputTrue ?? null)) out.push(`cards/${key}`);
    }
    return out;
  }
  if (sent.trigger && !same(comparable(sent.trigger), comparable(stored?.trigger ?? {}))) out.push('trigger');
  for (const list of ['conditions', 'actions']) {
    for (let i = 0; i < (sent[list] ?? []).length; i++) {
      if (!same(comparable(sent[list][i]), comparable(stored?.[list]?.[i] ?? {}))) out.push(`${list}/${i}`);
    }
    if ((stored?.[list] ?? []).length !== (sent[list] ?? []).length && sent[list]) out.push(list);
  }
  return out;
}

/** An Advanced Flow's cards from a trigger, conditions and actions: one chain, laid out left to right. */
function advancedCards(trigger, conditions, actions) {
  const cards = {};
  const chain = [];
  const add = (card, type) => {
    const key = randomUUID();
    cards[key] = { id: card.id, ownerUri: splitCardId(card.id).owner ?? undefined, type, args: card.args, ...(card.inverted ? { inverted: true } : {}), x: 40 + chain.length * 320, y: 80 };
    chain.push(key);
  };
  add(trigger, 'trigger');
  for (const c of conditions) add(c, 'condition');
  for (const a of actions) add(a, 'action');
  for (let i = 0; i < chain.length - 1; i++) {
    const card = cards[chain[i]];
    // a condition goes on when true; a trigger or action when done
    card[card.type === 'condition' ? 'outputTrue' : 'outputSuccess'] = [chain[i + 1]];
  }
  return cards;
}

/** The trigger, conditions and actions of an existing Flow or Advanced Flow, in order. */
function partsOf(flow) {
  if (flow.cards) {
    const cards = Object.values(flow.cards);
    const of = (type) => cards.filter((c) => c.type === type).sort((a, b) => (a.x ?? 0) - (b.x ?? 0)).map(comparable);
    return { trigger: of('trigger')[0], conditions: of('condition'), actions: of('action') };
  }
  return { trigger: flow.trigger && comparable(flow.trigger), conditions: (flow.conditions ?? []).map(comparable), actions: (flow.actions ?? []).map(comparable) };
}

module.exports = function flowEditTools({ io, homey }) {
  /** The hub's cards by ID with their kind, without those of hidden devices. */
  async function cards() {
    const api = await io.api();
    const [triggers, conditions, actions, home] = await Promise.all([
      api.flow.getFlowCardTriggers(),
      api.flow.getFlowCardConditions(),
      api.flow.getFlowCardActions(),
      io.visibility(),
    ]);
    const byId = new Map();
    for (const [kind, set] of [['trigger', triggers], ['condition', conditions], ['action', actions]]) {
      for (const card of Object.values(set ?? {})) {
        if (!card || typeof card.id !== 'string') continue;
        const owner = card.ownerUri ?? splitCardId(card.id).owner ?? '';
        if (owner.startsWith('homey:device:') && home.hiddenDevices.has(owner.slice('homey:device:'.length))) continue;
        byId.set(`${kind}:${card.id}`, { card, kind });
      }
    }
    return { byId, home };
  }

  async function getFlowCards({ type, query, deviceId, owner, limit = 30 }) {
    const { byId } = await cards();
    const words = String(query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const out = [];
    for (const { card, kind } of byId.values()) {
      if (type && kind !== type) continue;
      const cardOwner = card.ownerUri ?? splitCardId(card.id).owner ?? '';
      if (deviceId && cardOwner !== `homey:device:${deviceId}`) continue;
      if (owner && !cardOwner.includes(owner)) continue;
      const text = `${card.title ?? ''} ${card.titleFormatted ?? ''} ${card.id}`.toLowerCase();
      if (words.length && !words.every((w) => text.includes(w))) continue;
      out.push(describeCard(card, kind));
    }
    return { cards: out.slice(0, limit), count: out.length };
  }

  /** Checks one card given by the assistant; resolves to the card as a Flow holds it, or a failure text. */
  function checkCard(given, kind, where, byId, home) {
    const found = byId.get(`${kind}:${given.card}`);
    if (!found) return { error: `${where}: the hub has no ${kind} card ${JSON.stringify(given.card)} (get_flow_cards lists them)` };
    const args = { ...(given.args ?? {}) };
    // a device picked by its ID becomes the {id, name} a Flow stores
    for (const def of Array.isArray(found.card.args) ? found.card.args : []) {
      if (def?.type === 'device' && typeof args[def.name] === 'string') {
        const d = home.devicesById.get(args[def.name]);
        if (!d || home.hiddenDevices.has(d.id)) return { error: `${where}/args/${def.name}: no device with ID ${JSON.stringify(args[def.name])}` };
        args[def.name] = { id: d.id, name: d.name };
      }
    }
    const checked = validateArguments({ inputSchema: argsSchema(found.card) }, args);
    if (!checked.valid) return { error: `${where} (${found.card.title ?? given.card}): ${checked.message}` };
    return { card: { id: found.card.id, args: checked.arguments, ...(kind === 'condition' && given.inverted ? { inverted: true } : {}) } };
  }

  /** The folder "AI" at the top: its ID, or null when it does not exist yet. */
  async function aiFolder(api) {
    const folders = await api.flow.getFlowFolders();
    return Object.values(folders ?? {}).find((f) => f.name === FOLDER && !f.parent)?.id ?? null;
  }

  const made = () => {
    const v = homey.settings.get(MADE_KEY);
    return Array.isArray(v) ? v : [];
  };

  async function manageFlow({ action, flowId, advanced = false, name, trigger, conditions, actions, enabled, dryRun = false }) {
    const api = await io.api();
    const [simple, adv] = await Promise.all([api.flow.getFlows(), api.flow.getAdvancedFlows()]);
    const flowsById = new Map([...Object.values(simple ?? {}), ...Object.values(adv ?? {})].map((f) => [f.id, f]));
    let existing = null;
    let isAdvanced = advanced;
    if (action !== 'create') {
      if (flowId === undefined) return toolFailure(`${action} needs flowId (get_flow_overview lists the Flows)`);
      existing = flowsById.get(flowId) ?? null;
      const { home } = await cards();
      if (existing && checkFlow(existing, { ...home, flowsById, allowed: new Set(home.devicesById.keys()) }).hidden) existing = null;
      if (!existing) throw new NotFoundError(`no Flow with ID ${JSON.stringify(flowId)}`, 'get_flow_overview lists the Flows');
      isAdvanced = Boolean(adv?.[flowId] ?? existing.cards);
    }

    if (action === 'delete') {
      if (!made().includes(flowId)) {
        return toolFailure(`the app deletes only Flows it made; "${existing.name}" was not made by it: delete it in the Homey app`, { flow: { id: existing.id, name: existing.name } });
      }
      if (dryRun) return { dryRun: true, wouldDelete: { id: existing.id, name: existing.name } };
      await io.withScope('homey.flow', 'Deleting a Flow', (a) => (isAdvanced ? a.flow.deleteAdvancedFlow({ id: flowId }) : a.flow.deleteFlow({ id: flowId })));
      homey.settings.set(MADE_KEY, made().filter((id) => id !== flowId));
      return { deleted: { id: existing.id, name: existing.name } };
    }

    // the Flow's parts: given ones checked against the hub's cards, the others kept
    const { byId, home } = await cards();
    const before = existing ? partsOf(existing) : { trigger: undefined, conditions: [], actions: [] };
    const parts = { ...before };
    const errors = [];
    if (trigger !== undefined) {
      const r = checkCard(trigger, 'trigger', 'trigger', byId, home);
      if (r.error) errors.push(r.error);
      else parts.trigger = r.card;
    }
    for (const [list, kind, given] of [['conditions', 'condition', conditions], ['actions', 'action', actions]]) {
      if (given === undefined) continue;
      parts[list] = [];
      given.forEach((g, i) => {
        const r = checkCard(g, kind, `${list}/${i}`, byId, home);
        if (r.error) errors.push(r.error);
        else parts[list].push(r.card);
      });
    }
    if (errors.length) return toolFailure(errors.join('; '), { errors });
    if (action === 'create' && (!parts.trigger || !parts.actions.length || !name)) return toolFailure('a new Flow needs a name, a trigger and at least one action');

    const folder = action === 'create' ? await aiFolder(api) : existing.folder ?? null;
    const body = {
      name: name ?? existing?.name,
      // a new Flow is made disabled; the owner or a later call enables it
      enabled: action === 'create' ? false : enabled ?? existing.enabled !== false,
      ...(action === 'create' ? { folder } : {}),
      ...(isAdvanced
        ? { cards: trigger || conditions || actions || !existing ? advancedCards(parts.trigger, parts.conditions, parts.actions) : existing.cards }
        : {
          // parts not given stay as they are (an action's "then" or "else" group included)
          trigger: trigger !== undefined || !existing ? parts.trigger : existing.trigger,
          conditions: conditions !== undefined || !existing ? parts.conditions : existing.conditions ?? [],
          actions: actions !== undefined || !existing ? parts.actions.map((a) => ({ ...a, group: 'then' })) : existing.actions ?? [],
        }),
    };
    // refused as when it would be started: protected devices, hidden ones
    if (checkFlow({ ...body, id: flowId ?? 'new' }, { ...home, flowsById }).hidden) throw new NotFoundError('a card of this Flow uses a device or zone the app\'s settings hide');

    const summary = { name: body.name, type: isAdvanced ? 'advanced' : 'flow', enabled: body.enabled, folder: action === 'create' ? FOLDER : null, ...partsOf(body) };
    if (dryRun) return { dryRun: true, [action === 'create' ? 'wouldCreate' : 'wouldChange']: summary, ...(action === 'create' && !folder ? { note: `the folder "${FOLDER}" would be made` } : {}) };

    const written = await io.withScope('homey.flow', action === 'create' ? 'Making a Flow' : 'Changing a Flow', async (a) => {
      if (action === 'create') {
        const folderId = folder ?? (await a.flow.createFlowFolder({ flowfolder: { name: FOLDER } }))?.id ?? null;
        body.folder = folderId;
        return isAdvanced ? a.flow.createAdvancedFlow({ advancedflow: body }) : a.flow.createFlow({ flow: body });
      }
      return isAdvanced ? a.flow.updateAdvancedFlow({ id: flowId, advancedflow: body }) : a.flow.updateFlow({ id: flowId, flow: body });
    }, 'Flows can also be made by hand in the Homey app.');
    const id = written?.id ?? flowId;
    if (action === 'create' && id) homey.settings.set(MADE_KEY, [...made(), id]);
    // read back and compared with what was sent
    const stored = await (isAdvanced ? api.flow.getAdvancedFlow({ id }) : api.flow.getFlow({ id })).catch(() => null);
    const diff = stored ? differences(body, stored, isAdvanced) : ['the Flow could not be read back'];
    return {
      [action === 'create' ? 'created' : 'changed']: { id, ...summary },
      readBack: diff.length ? { same: false, differences: diff } : { same: true },
    };
  }

  return { get_flow_cards: getFlowCards, manage_flow: manageFlow };
};
