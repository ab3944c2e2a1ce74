'use strict';

// Flows: the overview, starting any Flow (needs a scope apps lack), and the
// AI tool Flows (started through the app's own trigger card).

const { toolFailure, validateArguments } = require('mcp-switchboard/full');
const { lookup } = require('./common');
const { checkFlow, flowCards, splitCardId } = require('../guard');

/** What checkFlow needs: the home's visibility and every Flow by ID. */
function guardHome(home, simple, advanced) {
  const flowsById = new Map([...Object.values(simple ?? {}), ...Object.values(advanced ?? {})].map((f) => [f.id, f]));
  return { ...home, flowsById };
}

/** Whether a Flow touches a device or zone the settings hide (it is then not there for the assistant). */
function hiddenFlow(flow, home) {
  try {
    return checkFlow(flow, { ...home, allowed: new Set(home.devicesById.keys()) }).hidden;
  } catch {
    return false;
  }
}

function folderPath(id, folders) {
  const names = [];
  const seen = new Set();
  for (let f = folders[id]; f && !seen.has(f.id); f = folders[f.parent]) {
    seen.add(f.id);
    names.unshift(f.name);
  }
  return names.join('/');
}

/** Short text for an argument value (device objects by name). */
function argValue(v) {
  if (v && typeof v === 'object') return v.name ?? v.title ?? v.id ?? '[object]';
  const s = String(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

module.exports = function flowTools({ io, flowTools: flowToolList }) {
  async function getFlowOverview({ include_disabled: includeDisabled = false, device_ids: deviceIds, folder_paths: folderPaths, app_ids: appIds }) {
    const api = await io.api();
    const [simple, advanced, folders, triggers, conditions, actions, home] = await Promise.all([
      api.flow.getFlows(),
      api.flow.getAdvancedFlows(),
      api.flow.getFlowFolders(),
      api.flow.getFlowCardTriggers().catch(() => ({})),
      api.flow.getFlowCardConditions().catch(() => ({})),
      api.flow.getFlowCardActions().catch(() => ({})),
      io.visibility(),
    ]);
    const guard = guardHome(home, simple, advanced);
    const titles = new Map();
    for (const set of [triggers, conditions, actions]) {
      for (const c of Object.values(set ?? {})) titles.set(c.id, c.title ?? c.titleFormatted ?? null);
    }
    const devicesById = new Map(home.devices.map((d) => [d.id, d]));
    const out = [];
    for (const [kind, flows] of [['flow', simple], ['advanced', advanced]]) {
      for (const flow of Object.values(flows ?? {})) {
        if (!includeDisabled && flow.enabled === false) continue;
        // a Flow that uses a device or zone the settings hide is not shown
        if (hiddenFlow(flow, guard)) continue;
        const devices = new Set();
        const apps = new Set();
        let tool = null;
        const cards = flowCards(flow).map(({ type, card }) => {
          const { owner, card: local } = splitCardId(card.id);
          if (owner?.startsWith('homey:device:')) devices.add(owner.slice('homey:device:'.length));
          if (owner?.startsWith('homey:app:')) apps.add(owner.slice('homey:app:'.length));
          const args = {};
          for (const [k, v] of Object.entries(card.args ?? {})) {
            if (v && typeof v === 'object' && typeof v.id === 'string' && devicesById.has(v.id)) devices.add(v.id);
            args[k] = argValue(v);
          }
          if (local === 'ai_tool_called' && typeof card.args?.command === 'string') tool = card.args.command.trim();
          return { type, title: titles.get(card.id) ?? local, owner, ...(Object.keys(args).length ? { args } : {}) };
        });
        const path = folderPath(flow.folder, folders ?? {});
        if (deviceIds && !deviceIds.some((id) => devices.has(id))) continue;
        if (appIds && !appIds.some((id) => apps.has(id))) continue;
        if (folderPaths && !folderPaths.some((p) => path === p || path.startsWith(`${p}/`))) continue;
        out.push({
          id: flow.id,
          name: flow.name,
          type: kind,
          enabled: flow.enabled !== false,
          folder: path || null,
          ...(tool ? { tool } : {}),
          cards,
          devices: [...devices].map((id) => ({ id, name: devicesById.get(id)?.name ?? null })),
          apps: [...apps],
        });
      }
    }
    out.sort((a, b) => (a.folder ?? '').localeCompare(b.folder ?? '') || a.name.localeCompare(b.name));
    return { flows: out, count: out.length };
  }

  async function triggerAnyFlow({ command, parameters = {} }, ctx) {
    const name = command.trim();
    const known = flowToolList.tools.get(name);
    if (known) {
      const checked = validateArguments(known.definition, parameters);
      if (!checked.valid) return toolFailure(`parameters for ${name}: ${checked.message}`, { inputSchema: known.definition.inputSchema });
      return flowToolList.run(name, checked.arguments, ctx);
    }
    return flowToolList.run(name, parameters, ctx);
  }

  async function startFlow({ flowId, flowName }) {
    const api = await io.api();
    const [simple, advanced, home] = await Promise.all([api.flow.getFlows(), api.flow.getAdvancedFlows(), io.visibility()]);
    const guard = guardHome(home, simple, advanced);
    const all = [
      ...Object.values(simple ?? {}).map((f) => ({ f, advanced: false })),
      ...Object.values(advanced ?? {}).map((f) => ({ f, advanced: true })),
    ].filter((x) => !hiddenFlow(x.f, guard));
    const found = lookup(all, { id: flowId, name: flowName }, (x) => x.f);
    if (!found) {
      return toolFailure(`no Flow ${flowId !== undefined ? `with ID ${JSON.stringify(flowId)}` : `named ${JSON.stringify(flowName)}`}`, { hint: 'get_flow_overview lists the Flows' });
    }
    const { f, advanced: isAdvanced } = found;
    if (f.enabled === false) return toolFailure(`the Flow "${f.name}" is disabled`, { flow: { id: f.id, name: f.name } });
    // one that would unlock, open, disarm or sound a protected device is refused (ProtectedError)
    checkFlow(f, guard);
    const cardHint = `Give the Flow "${f.name}" this app's trigger card "An AI assistant calls a tool" (in an Advanced Flow, next to its other triggers): it then appears as a tool of its own, which the app may start.`;
    await io.withScope('homey.flow.start', 'Starting a Flow', (a) => (isAdvanced ? a.flow.triggerAdvancedFlow({ id: f.id }) : a.flow.triggerFlow({ id: f.id })), cardHint);
    return { started: true, flow: { id: f.id, name: f.name, type: isAdvanced ? 'advanced' : 'flow' } };
  }

  async function refreshFlows() {
    const changed = await flowToolList.scan();
    return {
      changed,
      tools: flowToolList.definitions().map((t) => ({ name: t.name, description: t.description })),
      ...(flowToolList.skipped.length ? { skipped: flowToolList.skipped } : {}),
    };
  }

  return {
    get_flow_overview: getFlowOverview,
    trigger_any_flow: triggerAnyFlow,
    start_flow: startFlow,
    refresh_homey_flows: refreshFlows,
  };
};
