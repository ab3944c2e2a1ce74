'use strict';

// The hub itself: installed apps, the Zigbee mesh and its health. Only
// listed fields are copied from the Web API's answers (the Zigbee state holds
// the network key, the system info addresses and IDs).

const { hoursSince, time } = require('./common');

const MB = 1024 * 1024;
const MIN_TX_FOR_RATE = 20;
const HIGH_ERROR_PERCENT = 10;

const mb = (bytes) => (typeof bytes === 'number' ? Math.round(bytes / MB) : null);
const percent = (part, total) => (typeof part === 'number' && typeof total === 'number' && total > 0 ? Math.round((part / total) * 100) : null);

function largest(usage, top, skip = []) {
  return Object.entries(usage?.types ?? {})
    .filter(([key]) => !skip.includes(key))
    .map(([key, t]) => ({ name: t?.name ?? key, mb: mb(t?.size) ?? 0 }))
    .sort((a, b) => b.mb - a.mb)
    .slice(0, top);
}

function appSummary(app) {
  return {
    id: app.id,
    name: app.name ?? app.id,
    version: app.version ?? null,
    state: app.state ?? null,
    enabled: app.enabled !== false,
    crashed: app.crashed === true,
    crashedCount: app.crashedCount ?? 0,
    ...(app.crashedMessage ? { crashedMessage: app.crashedMessage } : {}),
    memoryMb: mb(app.usage?.mem),
    cpuPercent: typeof app.usage?.cpu === 'number' ? Math.round(app.usage.cpu * 10) / 10 : null,
  };
}

module.exports = function systemTools({ io }) {
  async function getInstalledApps({ app_ids: appIds, include_flow_cards: cards, include_devices: withDevices, include_capabilities: withCaps }) {
    const api = await io.api();
    const [apps, home, triggers, conditions, actions] = await Promise.all([
      api.apps.getApps(),
      withDevices || withCaps ? io.home() : null,
      cards ? api.flow.getFlowCardTriggers() : null,
      cards ? api.flow.getFlowCardConditions() : null,
      cards ? api.flow.getFlowCardActions() : null,
    ]);
    let list = Object.values(apps ?? {});
    if (appIds) list = list.filter((a) => appIds.includes(a.id));
    const out = list.map((a) => {
      const entry = { id: a.id, name: a.name ?? a.id, version: a.version ?? null, enabled: a.enabled !== false, state: a.state ?? null };
      const owner = `homey:app:${a.id}`;
      if (cards) {
        const of = (set) => Object.values(set ?? {}).filter((c) => c.ownerUri === owner || String(c.id).startsWith(`${owner}:`)).map((c) => c.title ?? c.id);
        entry.flowCards = { triggers: of(triggers), conditions: of(conditions), actions: of(actions) };
      }
      if (home) {
        const devices = home.devices.filter((d) => d.ownerUri === owner || String(d.driverId ?? '').startsWith(`${owner}:`));
        if (withDevices) entry.devices = devices.map((d) => ({ id: d.id, name: d.name, class: d.virtualClass || d.class }));
        if (withCaps) entry.capabilities = [...new Set(devices.flatMap((d) => Object.keys(d.capabilitiesObj ?? {})))].sort();
      }
      return entry;
    });
    out.sort((a, b) => a.name.localeCompare(b.name));
    return { apps: out, count: out.length };
  }

  async function getZigbeeNetwork({ name_filter: nameFilter, node_type: nodeType, only_issues: onlyIssues = false, stale_after_hours: staleAfter = 24 }) {
    const api = await io.api();
    const [state, home] = await Promise.all([api.zigbee.getState(), io.visibility()]);
    const raw = state ?? {};
    // nodes of devices in hidden zones are left out (counts included), known by
    // their IEEE address (the device's zb_ieee_address setting) or their name
    const ieee = (v) => String(v ?? '').toLowerCase().replace(/[^0-9a-f]/g, '');
    const hiddenIeee = new Set();
    const hiddenNames = new Set();
    for (const id of home.hiddenDevices) {
      const d = home.devicesById.get(id);
      if (ieee(d?.settings?.zb_ieee_address)) hiddenIeee.add(ieee(d.settings.zb_ieee_address));
      if (d?.name) hiddenNames.add(d.name);
    }
    const isHidden = (n) => hiddenIeee.has(ieee(n.ieeeAddress ?? n.ieee)) || hiddenNames.has(n.name);
    const allNodes = (Array.isArray(raw.nodes) ? raw.nodes : Object.values(raw.nodes ?? {})).filter((n) => n && typeof n === 'object');
    const hiddenAddresses = new Set(allNodes.filter(isHidden).map((n) => String(n.networkAddress ?? n.nwkAddr ?? '')));
    const rawNodes = allNodes.filter((n) => !isHidden(n));
    const routes = raw.controllerState?.routes ?? {};
    const address = (n) => n.networkAddress ?? n.nwkAddr ?? null;
    const nameOf = (n) => n.name || (address(n) !== null ? `node ${address(n)}` : 'unknown');
    const names = new Map(rawNodes.filter((n) => address(n) !== null).map((n) => [address(n), nameOf(n)]));
    const hops = new Map();
    for (const [to, path] of Object.entries(routes)) {
      if (hiddenAddresses.has(String(to)) || !Array.isArray(path)) continue;
      for (const hop of path) hops.set(hop, (hops.get(hop) ?? 0) + 1);
    }
    const now = Date.now();
    const nodes = rawNodes.map((n) => {
      const a = address(n);
      const t = String(n.type ?? n.deviceType ?? '').toLowerCase();
      const type = ['coordinator', 'router', 'enddevice'].includes(t) ? t : 'unknown';
      const seen = typeof n.lastSeen === 'number' && n.lastSeen > 0 ? n.lastSeen : null;
      const hours = seen === null ? null : hoursSince(seen, now);
      const tx = n.stats?.tx ?? 0;
      const txError = n.stats?.txError ?? 0;
      const rate = tx >= MIN_TX_FOR_RATE ? Math.round((txError / tx) * 1000) / 10 : null;
      const stale = type !== 'coordinator' && (hours === null || hours > staleAfter);
      return {
        name: nameOf(n),
        type,
        networkAddress: a,
        ...(n.modelId ? { model: n.modelId } : {}),
        ...(n.manufacturerName ? { manufacturer: n.manufacturerName } : {}),
        lastSeen: seen === null ? null : time(seen),
        hoursSinceLastSeen: hours,
        stale,
        tx,
        txError,
        txErrorPercent: rate,
        rx: n.stats?.rx ?? 0,
        routeVia: a === null ? [] : (routes[String(a)] ?? []).map((h) => (hiddenAddresses.has(String(h)) ? 'a hidden device' : names.get(h) ?? `node ${h}`)),
        routesFor: a === null ? 0 : hops.get(a) ?? 0,
        issue: type !== 'coordinator' && (stale || (rate !== null && rate >= HIGH_ERROR_PERCENT)),
      };
    });
    const count = (type) => nodes.filter((n) => n.type === type).length;
    const shown = nodes
      .filter((n) => !nameFilter || n.name.toLowerCase().includes(nameFilter.toLowerCase()))
      .filter((n) => !nodeType || n.type === nodeType)
      .filter((n) => !onlyIssues || n.issue);
    return {
      ready: raw.zigbee_ready === true,
      channel: raw.controllerState?.channel ?? null,
      staleAfterHours: staleAfter,
      totalNodes: nodes.length,
      routers: count('router'),
      endDevices: count('enddevice'),
      withIssues: nodes.filter((n) => n.issue).length,
      nodes: shown,
    };
  }

  async function getSystemHealth({ include_apps: withApps = true, top = 8 }) {
    const api = await io.api();
    const parts = await Promise.all([
      api.system.getInfo().catch(() => null),
      api.system.getMemoryInfo().catch(() => null),
      api.system.getStorageInfo().catch(() => null),
      withApps ? api.apps.getApps().catch(() => null) : null,
    ]);
    const [info, memory, storage, apps] = parts;
    if (!info && !memory && !storage && !apps) throw new Error('no system information could be read from the hub');
    const s = info ?? {};
    return {
      version: s.homeyVersion ?? null,
      model: s.homeyModelName ?? null,
      bootDate: s.bootDate ?? null,
      rebootReason: s.rebootReason ?? null,
      uptimeHours: typeof s.uptime === 'number' ? Math.round(s.uptime / 360) / 10 : null,
      ...(Array.isArray(s.loadavg) ? { loadAverage: s.loadavg.map((l) => Math.round(l * 100) / 100) } : {}),
      ...(typeof s.videoCoreTemperature === 'number' ? { temperatureC: s.videoCoreTemperature } : {}),
      network: {
        wifiConnected: s.wifiConnected ?? null,
        ...(typeof s.wifiFrequency === 'number' ? { wifiBand: s.wifiFrequency < 3000 ? '2.4 GHz' : s.wifiFrequency < 5900 ? '5 GHz' : '6 GHz' } : {}),
        ...(typeof s.wifiStrength === 'number' ? { wifiStrength: s.wifiStrength } : {}),
        ethernetConnected: s.ethernetConnected ?? null,
      },
      memory: memory ? { totalMb: mb(memory.total), freeMb: mb(memory.free), freePercent: percent(memory.free, memory.total), largest: largest(memory, top) } : null,
      storage: storage ? { totalMb: mb(storage.total), freeMb: mb(storage.free), freePercent: percent(storage.free, storage.total), largest: largest(storage, top, ['swap']) } : null,
      apps: apps ? Object.values(apps).map(appSummary).sort((a, b) => (b.memoryMb ?? 0) - (a.memoryMb ?? 0)) : null,
    };
  }

  return { get_installed_apps: getInstalledApps, get_zigbee_network: getZigbeeNetwork, get_homey_system_health: getSystemHealth };
};
