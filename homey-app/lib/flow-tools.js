'use strict';

// Flows as tools. Every enabled Flow that starts with the app's trigger card
// "An AI assistant calls a tool" becomes a tool: the card's arguments give
// its name, description and up to three typed parameters (a name and a
// dropdown type each, so nothing is parsed). The list is read again when
// Homey says the card was updated (a Flow using it was saved) and every few
// minutes (enabling or disabling a Flow does not update the card); when it
// changes, `onChange` gets the new tool definitions.
//
// A Flow can answer the assistant with the action card "Answer the AI
// assistant", given the trigger's Call ID token: the tool call then waits for
// that answer.

const { randomBytes } = require('crypto');

const { checkFlow } = require('./guard');
const { NotFoundError } = require('./homey-io');

const TRIGGER_CARD = 'ai_tool_called';
const ANSWER_CARD = 'ai_tool_answer';
const SLOTS = [1, 2, 3];
/** Dropdown value (without "_optional") → JSON Schema type and words. */
const SLOT_TYPES = {
  text: { type: 'string', words: 'text' },
  number: { type: 'number', words: 'number' },
  yesno: { type: 'boolean', words: 'true or false' },
};

/** The parameters a card's arguments declare: [{name, slot, kind, optional}]. */
function cardParameters(args) {
  const params = [];
  for (const slot of SLOTS) {
    const name = typeof args[`param${slot}`] === 'string' ? args[`param${slot}`].trim() : '';
    if (!name || params.some((p) => p.name === name)) continue;
    const raw = typeof args[`type${slot}`] === 'string' ? args[`type${slot}`] : args[`type${slot}`]?.id ?? 'text';
    const optional = raw.endsWith('_optional');
    const kind = raw.replace(/_optional$/, '');
    params.push({ name, slot, kind: kind in SLOT_TYPES ? kind : 'text', optional });
  }
  return params;
}

/** A Flow tool's definition from its card arguments and the Flows that use it. */
function flowToolDefinition(command, args, params, flowNames) {
  const properties = {};
  const required = [];
  for (const p of params) {
    properties[p.name] = { type: SLOT_TYPES[p.kind].type, description: `Parameter ${p.slot} of the Flow (${SLOT_TYPES[p.kind].words}).` };
    if (!p.optional) required.push(p.name);
  }
  const named = flowNames.length > 0 ? ` (Flow${flowNames.length > 1 ? 's' : ''} ${flowNames.map((n) => `"${n}"`).join(', ')})` : '';
  const description = typeof args.description === 'string' && args.description.trim() ? args.description.trim() : 'Runs a Homey Flow.';
  return {
    name: command,
    title: flowNames[0] ?? command,
    description: `${description}${named}`,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    annotations: { title: flowNames[0] ?? command, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  };
}

/** The trigger and answer cards' instances in a Flow or Advanced Flow. */
function cardsOf(flow, triggerSuffix, answerSuffix) {
  const triggers = [];
  let answers = false;
  const visit = (card) => {
    if (!card || typeof card.id !== 'string') return;
    if (card.id.endsWith(triggerSuffix) && (card.type === undefined || card.type === 'trigger')) triggers.push(card.args ?? {});
    if (card.id.endsWith(answerSuffix)) answers = true;
  };
  visit(flow.trigger);
  for (const c of flow.actions ?? []) visit(c);
  for (const c of Object.values(flow.cards ?? {})) visit(c);
  return { triggers, answers };
}

class FlowTools {
  /**
   * @param {object} options
   * @param {object} options.homey the app's Homey instance
   * @param {import('./homey-io').HomeyIO} options.io
   * @param {Set<string>} options.reserved names of the built-in tools (a Flow cannot take them)
   * @param {(tools: object[]) => void} options.onChange gets the new definitions when they change
   * @param {(...a: unknown[]) => void} [options.log]
   * @param {number} [options.pollMs] re-read interval (default 5 minutes)
   * @param {number} [options.answerMs] how long a call waits for an answer card (default 25 s)
   */
  constructor({ homey, io, reserved, onChange, log = () => {}, pollMs = 5 * 60_000, answerMs = 25_000 }) {
    this.homey = homey;
    this.io = io;
    this.reserved = reserved;
    this.onChange = onChange;
    this.log = log;
    this.pollMs = pollMs;
    this.answerMs = answerMs;
    this.tools = new Map(); // name → {definition, params, flows, answers}
    this.skipped = [];
    this.pending = new Map(); // call ID → resolve(answer)
    this.signature = '';
    this.timer = null;
    this.debounce = null;
    this.scanning = null;
  }

  async init() {
    const appId = this.homey.manifest?.id ?? '';
    this.triggerSuffix = `${appId}:${TRIGGER_CARD}`;
    this.answerSuffix = `${appId}:${ANSWER_CARD}`;
    this.card = this.homey.flow.getTriggerCard(TRIGGER_CARD);
    this.card.registerRunListener(async (args, state) => typeof args.command === 'string' && args.command.trim() === state.command);
    this.card.on('update', () => this.soon());
    this.homey.flow.getActionCard(ANSWER_CARD).registerRunListener(async ({ call, answer }) => {
      const resolve = this.pending.get(String(call ?? '').trim());
      // shown in the Flow's log: the wrong token in the Call ID field, or too late
      if (!resolve) throw new Error('No AI tool call is waiting for this answer: put the Call ID token of the trigger card in the first field; an answer after 25 seconds comes too late.');
      resolve(String(answer ?? ''));
      return true;
    });
    await this.scan();
    this.timer = this.homey.setInterval(() => this.scan().catch((e) => this.log('reading the AI tool Flows failed:', e.message)), this.pollMs);
  }

  /** Reads again shortly (several updates in a row make one read). */
  soon() {
    this.homey.clearTimeout(this.debounce);
    this.debounce = this.homey.setTimeout(() => {
      this.scan().catch((e) => this.log('reading the AI tool Flows failed:', e.message));
    }, 300);
  }

  /** The Flows using the cards, from the Web API: command → {enabled, flows, answers}; null when unreadable. */
  async flowsUsingCard() {
    let flows;
    try {
      const api = await this.io.api();
      const [simple, advanced] = await Promise.all([api.flow.getFlows(), api.flow.getAdvancedFlows()]);
      flows = [...Object.values(simple ?? {}), ...Object.values(advanced ?? {})];
    } catch (err) {
      this.log('cannot read the Flows (tools come from the card alone):', err.message);
      return null;
    }
    const byCommand = new Map();
    for (const flow of flows) {
      const { triggers, answers } = cardsOf(flow, this.triggerSuffix, this.answerSuffix);
      for (const args of triggers) {
        const command = typeof args.command === 'string' ? args.command.trim() : '';
        if (!command) continue;
        const entry = byCommand.get(command) ?? { enabled: [], disabled: [], answers: false };
        (flow.enabled === false ? entry.disabled : entry.enabled).push(flow.name);
        if (flow.enabled !== false && answers) entry.answers = true;
        byCommand.set(command, entry);
      }
    }
    return byCommand;
  }

  /** Reads the card's arguments and the Flows; calls onChange when the tools changed. */
  scan() {
    this.scanning ??= this.#scan().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  async #scan() {
    const [values, flows] = await Promise.all([this.card.getArgumentValues(), this.flowsUsingCard()]);
    const tools = new Map();
    const skipped = [];
    for (const args of values ?? []) {
      const command = typeof args.command === 'string' ? args.command.trim() : '';
      if (!command || tools.has(command)) continue;
      const info = flows?.get(command);
      if (flows && (!info || info.enabled.length === 0)) continue; // only in disabled Flows
      if (this.reserved.has(command)) {
        skipped.push({ command, code: 'reserved', reason: `a built-in tool is called ${command}; choose another tool name` });
        continue;
      }
      const params = cardParameters(args);
      const names = info?.enabled ?? [];
      tools.set(command, { definition: flowToolDefinition(command, args, params, names), params, flows: names, answers: info?.answers ?? false });
    }
    const signature = JSON.stringify([...tools.values()].map((t) => [t.definition, t.answers]));
    this.skipped = skipped;
    if (signature === this.signature) return false;
    this.signature = signature;
    this.tools = tools;
    this.log(`AI tool Flows: ${tools.size} tool(s)${skipped.length ? `, ${skipped.length} skipped` : ''}`);
    this.onChange(this.definitions());
    return true;
  }

  definitions() {
    return [...this.tools.values()].map((t) => t.definition);
  }

  has(name) {
    return this.tools.has(name);
  }

  /**
   * Starts the Flows of tool `command` with `args` (validated against the
   * tool's schema by the engine); waits for an answer card when one of the
   * Flows has it.
   */
  async run(command, args = {}, ctx = undefined) {
    await this.#guard(command);
    const tool = this.tools.get(command);
    const call = randomBytes(6).toString('hex');
    const tokens = { command, call };
    for (const slot of SLOTS) Object.assign(tokens, { [`text${slot}`]: '', [`number${slot}`]: 0, [`yesno${slot}`]: false });
    for (const p of tool?.params ?? []) {
      const v = args[p.name];
      if (v === undefined || v === null) continue;
      tokens[`text${p.slot}`] = String(v);
      if (typeof v === 'number') tokens[`number${p.slot}`] = v;
      if (typeof v === 'boolean') tokens[`yesno${p.slot}`] = v;
    }
    if (!tool) {
      // a tool name the scan has not seen: fill the slots in the order given
      Object.values(args).slice(0, SLOTS.length).forEach((v, i) => {
        tokens[`text${i + 1}`] = String(v);
        if (typeof v === 'number') tokens[`number${i + 1}`] = v;
        if (typeof v === 'boolean') tokens[`yesno${i + 1}`] = v;
      });
    }
    const answered = tool?.answers ? this.#answer(call, ctx) : null;
    try {
      await this.card.trigger(tokens, { command, call });
    } catch (err) {
      this.pending.get(call)?.(null);
      throw err;
    }
    const result = { started: true, tool: command, flows: tool?.flows ?? [] };
    if (!tool) result.note = `no enabled Flow is known to use the tool name ${command}; the card was triggered anyway`;
    if (answered) {
      const answer = await answered;
      if (answer === null) result.note = `the Flow did not answer within ${Math.round(this.answerMs / 1000)} s`;
      else result.answer = answer;
    }
    return result;
  }

  /**
   * Reads the Flows that `command` would start, as they are now (one saved a
   * moment ago included), and refuses the call when one of them acts on a
   * protected device (ProtectedError) or touches a device or zone the
   * settings hide (NotFoundError).
   */
  async #guard(command) {
    const api = await this.io.api();
    const [simple, advanced, home] = await Promise.all([api.flow.getFlows(), api.flow.getAdvancedFlows(), this.io.visibility()]);
    const flows = [...Object.values(simple ?? {}), ...Object.values(advanced ?? {})];
    const context = { ...home, flowsById: new Map(flows.map((f) => [f.id, f])) };
    for (const flow of flows) {
      if (flow.enabled === false) continue;
      const { triggers } = cardsOf(flow, this.triggerSuffix, this.answerSuffix);
      if (!triggers.some((args) => typeof args.command === 'string' && args.command.trim() === command)) continue;
      if (checkFlow(flow, context).hidden) {
        throw new NotFoundError(`the tool ${command} does not run for the assistant: a Flow it starts uses a device or zone the app's settings hide`);
      }
    }
  }

  /** Resolves with the Flow's answer to `call`, or null after answerMs. */
  #answer(call, ctx) {
    return new Promise((resolve) => {
      const done = (answer) => {
        this.homey.clearTimeout(timer);
        this.pending.delete(call);
        resolve(answer);
      };
      const timer = this.homey.setTimeout(() => done(null), this.answerMs);
      this.pending.set(call, done);
      // the call's signal aborts when the client cancels or the call times out
      ctx?.signal?.addEventListener('abort', () => done(null), { once: true });
    });
  }

  close() {
    this.homey.clearInterval(this.timer);
    this.homey.clearTimeout(this.debounce);
    for (const done of this.pending.values()) done(null);
  }
}

module.exports = { FlowTools, cardParameters, flowToolDefinition, cardsOf, TRIGGER_CARD, ANSWER_CARD };
