// Boots the app as the Homey runtime would, without a hub: the fake `homey`
// module (test/runtime/homey), a `homey` instance with settings, Flow cards,
// the Web API token and address, and the real homey-api client talking to
// the fake Web API (fake-homey-api.mjs) over loopback.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ANSWER, TRIGGER } from './fake-home.mjs';
import { APP_SCOPES, startFakeHomeyApi } from './fake-homey-api.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const appDir = join(here, '..');

// `require('homey')` in the app resolves to the fake runtime module
process.env.NODE_PATH = [join(here, 'runtime'), process.env.NODE_PATH].filter(Boolean).join(':');
Module._initPaths();
const require = createRequire(join(appDir, 'app.js'));

export const APP_TOKEN = 'app-owner-token-0123456789';
export const PERSONAL_KEY = 'personal-api-key-abcdef';

/** homey.settings: values by key, 'set' and 'unset' events. */
class FakeSettings extends EventEmitter {
  constructor(initial = {}) {
    super();
    this.values = new Map(Object.entries(initial));
  }

  get(key) {
    return this.values.has(key) ? structuredClone(this.values.get(key)) : null;
  }

  set(key, value) {
    this.values.set(key, structuredClone(value));
    this.emit('set', key);
  }

  unset(key) {
    this.values.delete(key);
    this.emit('unset', key);
  }

  getKeys() {
    return [...this.values.keys()];
  }
}

/** The instances of trigger card `uri` in the home's Flows: [{flow, args, advanced}]. */
function instances(home, uri) {
  const out = [];
  for (const flow of Object.values(home.flows)) {
    if (flow.trigger?.id === uri) out.push({ flow, args: flow.trigger.args, actions: flow.actions ?? [] });
  }
  for (const flow of Object.values(home.advancedFlows)) {
    for (const card of Object.values(flow.cards)) {
      if (card.type === 'trigger' && card.id === uri) out.push({ flow, args: card.args, actions: Object.values(flow.cards).filter((c) => c.type === 'action') });
    }
  }
  return out;
}

function fill(value, tokens) {
  return typeof value === 'string' ? value.replace(/\[\[(\w+)\]\]/g, (_, name) => String(tokens[name] ?? '')) : value;
}

class FakeTriggerCard extends EventEmitter {
  constructor(id, runtime) {
    super();
    this.id = id;
    this.uri = `homey:app:${runtime.manifest.id}:${id}`;
    this.runtime = runtime;
    this.listener = null;
  }

  registerRunListener(fn) {
    this.listener = fn;
    return this;
  }

  /** Argument values of every card instance, as the runtime gives them (disabled Flows included). */
  async getArgumentValues() {
    return instances(this.runtime.home, this.uri).map((i) => structuredClone(i.args));
  }

  /** Runs every enabled Flow whose run listener accepts the state. */
  async trigger(tokens, state) {
    for (const i of instances(this.runtime.home, this.uri)) {
      if (i.flow.enabled === false) continue;
      const run = this.listener ? await this.listener(structuredClone(i.args), state) : true;
      if (run) await this.runtime.runFlow(i.flow, i.actions, tokens);
    }
  }
}

class FakeActionCard extends EventEmitter {
  constructor(id) {
    super();
    this.id = id;
    this.listener = null;
  }

  registerRunListener(fn) {
    this.listener = fn;
    return this;
  }
}

/**
 * The `homey` instance an app gets.
 * @param {{home: object, apiUrl: string, settings?: object}} options
 */
export function createFakeHomey({ home, apiUrl, settings }) {
  const manifest = JSON.parse(readFileSync(join(appDir, 'app.json'), 'utf8'));
  const timers = new Set();
  const homey = new EventEmitter();
  const triggerCards = new Map();
  const actionCards = new Map();
  Object.assign(homey, {
    manifest,
    version: home.system.info.homeyVersion,
    platform: 'local',
    platformVersion: 2,
    env: {},
    home,
    settings: new FakeSettings(settings),
    api: {
      getOwnerApiToken: async () => APP_TOKEN,
      getLocalUrl: async () => apiUrl,
    },
    clock: { getTimezone: () => 'Europe/Amsterdam' },
    // the Apps SDK's timeline: what the app writes there
    notifications: {
      async createNotification({ excerpt } = {}) {
        if (typeof excerpt !== 'string' || !excerpt) throw new Error('Invalid excerpt');
        home.notifications ??= [];
        home.notifications.push({ excerpt, ownerUri: `homey:app:${manifest.id}`, dateCreated: new Date().toISOString() });
      },
    },
    cloud: {
      getHomeyId: async () => home.id,
      getLocalAddress: async () => `127.0.0.1:${new URL(apiUrl).port}`,
    },
    flow: {
      getTriggerCard(id) {
        if (!manifest.flow?.triggers?.some((c) => c.id === id)) throw new Error(`Invalid Flow Card ID: ${id}`);
        if (!triggerCards.has(id)) triggerCards.set(id, new FakeTriggerCard(id, homey));
        return triggerCards.get(id);
      },
      getActionCard(id) {
        if (!manifest.flow?.actions?.some((c) => c.id === id)) throw new Error(`Invalid Flow Card ID: ${id}`);
        if (!actionCards.has(id)) actionCards.set(id, new FakeActionCard(id));
        return actionCards.get(id);
      },
    },
    setTimeout(fn, ms, ...args) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn(...args);
      }, ms);
      timers.add(t);
      return t;
    },
    clearTimeout(t) {
      timers.delete(t);
      clearTimeout(t);
    },
    setInterval(fn, ms, ...args) {
      const t = setInterval(fn, ms, ...args);
      timers.add(t);
      return t;
    },
    clearInterval(t) {
      timers.delete(t);
      clearInterval(t);
    },
    /** Timers the app left running. */
    timers,
    /** Runs a Flow's actions: the app's answer card, device capability cards. */
    async runFlow(flow, actions, tokens) {
      home.flowRuns.push({ flowId: flow.id, tokens: { ...tokens } });
      for (const action of actions) {
        const args = Object.fromEntries(Object.entries(action.args ?? {}).map(([k, v]) => [k, fill(v, tokens)]));
        if (action.id === ANSWER) {
          await actionCards.get('ai_tool_answer')?.listener?.(args, {});
          continue;
        }
        const m = action.id.match(/^homey:device:([^:]+):(.+)$/);
        const device = m && home.devices[m[1]];
        if (!device) continue;
        if (m[2] === 'on' || m[2] === 'off') device.capabilitiesObj.onoff.value = m[2] === 'on';
        else if (m[2] in device.capabilitiesObj) {
          const v = Number(Object.values(args)[0]);
          if (!Number.isNaN(v)) device.capabilitiesObj[m[2]].value = v;
        }
      }
    },
  });
  // saving a Flow that uses an app's card updates the card, as on a hub
  home.on('flows-changed', () => triggerCards.get(TRIGGER.split(':').pop())?.emit('update'));
  return homey;
}

/**
 * Starts the fake Web API and the app on it.
 * @param {{home: object, settings?: object, tokens?: Record<string, string[]>}} options more tokens and their scopes
 */
export async function bootApp({ home, settings = {}, tokens = {} }) {
  const api = await startFakeHomeyApi(home, { tokens: { [APP_TOKEN]: APP_SCOPES, [PERSONAL_KEY]: ['homey'], ...tokens } });
  const homey = createFakeHomey({ home, apiUrl: api.url, settings });
  const App = require('./app.js');
  const app = new App();
  app.homey = homey;
  homey.app = app;
  await app.onInit();
  return {
    app,
    homey,
    home,
    api,
    async close() {
      await app.onUninit();
      const left = homey.timers.size;
      for (const t of homey.timers) clearTimeout(t);
      await api.close();
      return { timersLeft: left };
    },
  };
}
