// An in-process fake of the Homey Web API (/api/manager/...) on loopback,
// serving a simulated home (fake-home.mjs) to the real homey-api client.
// Tokens carry scopes as on a hub: the app's own token lacks the scopes Homey
// does not give apps (starting Flows, activating moods, Logic), and requests
// for those get 403 Missing Scopes; a personal API key has them all.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createRequire } from 'node:module';

// required, not imported: on Node 22 an ES import of node:http loads undici
// (its WebSocket getters), 10 MB in the app's process of bench.mjs
const { createServer } = createRequire(import.meta.url)('node:http');

/** The scopes an app's token has (homey:manager:api), as the fake grants them. */
export const APP_SCOPES = [
  'homey.alarm',
  'homey.app.readonly',
  'homey.device.control',
  'homey.device.readonly',
  'homey.energy.readonly',
  'homey.flow.readonly',
  'homey.insights.readonly',
  'homey.mood.readonly',
  'homey.system.readonly',
  'homey.zone.readonly',
];

/** Whether `scopes` grant `scope`: itself or a parent ("homey" grants everything, "homey.flow" grants "homey.flow.start"). */
function hasScope(scopes, scope) {
  const parts = scope.split('.');
  for (let i = 1; i <= parts.length; i++) if (scopes.includes(parts.slice(0, i).join('.'))) return true;
  return false;
}

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Routes: [method, manager, path pattern, scope, handler(params, body, query)].
 * Patterns use :name for one path segment.
 */
function routes(home) {
  const need = (map, id, what) => {
    if (!map[id]) throw new HttpError(404, `${what} not found: ${id}`);
    return map[id];
  };
  const set = (deviceId, capabilityId, value) => {
    const d = need(home.devices, deviceId, 'Device');
    const c = d.capabilitiesObj[capabilityId];
    if (!c) throw new HttpError(404, `Capability not found: ${capabilityId}`);
    if (!c.setable) throw new HttpError(400, `Capability not setable: ${capabilityId}`);
    if (c.type === 'number' && typeof value !== 'number') throw new HttpError(400, `Invalid value for ${capabilityId}`);
    if (c.type === 'boolean' && typeof value !== 'boolean') throw new HttpError(400, `Invalid value for ${capabilityId}`);
    c.value = value;
    c.lastUpdated = new Date().toISOString();
  };
  return [
    ['GET', 'system', '/ping', null, () => 'pong'],
    // the session of the token that asks (no scope needed), with its scopes
    ['GET', 'sessions', '/session/me', '', (_p, _b, _q, scopes) => ({ type: 'pat', scopes })],
    ['GET', 'system', '/', 'homey.system.readonly', () => home.system.info],
    ['GET', 'system', '/memory', 'homey.system.readonly', () => home.system.memory],
    ['GET', 'system', '/storage', 'homey.system.readonly', () => home.system.storage],
    ['GET', 'zones', '/zone', 'homey.zone.readonly', () => home.zones],
    ['GET', 'zones', '/zone/:id', 'homey.zone.readonly', ({ id }) => need(home.zones, id, 'Zone')],
    ['GET', 'devices', '/device', 'homey.device.readonly', () => home.devices],
    ['GET', 'devices', '/device/:id', 'homey.device.readonly', ({ id }) => need(home.devices, id, 'Device')],
    ['PUT', 'devices', '/device/:deviceId/capability/:capabilityId', 'homey.device.control', ({ deviceId, capabilityId }, body) => set(deviceId, capabilityId, body?.value)],
    ['GET', 'flow', '/flow', 'homey.flow.readonly', () => home.flows],
    ['GET', 'flow', '/advancedflow', 'homey.flow.readonly', () => home.advancedFlows],
    ['GET', 'flow', '/flowfolder', 'homey.flow.readonly', () => home.folders],
    ['GET', 'flow', '/flowcardtrigger', 'homey.flow.readonly', () => home.flowCards.triggers],
    ['GET', 'flow', '/flowcardcondition', 'homey.flow.readonly', () => home.flowCards.conditions],
    ['GET', 'flow', '/flowcardaction', 'homey.flow.readonly', () => home.flowCards.actions],
    ['GET', 'flow', '/flow/:id', 'homey.flow.readonly', ({ id }) => need(home.flows, id, 'Flow')],
    ['GET', 'flow', '/advancedflow/:id', 'homey.flow.readonly', ({ id }) => need(home.advancedFlows, id, 'AdvancedFlow')],
    // writing Flows: the body is the Flow itself (root); the hub gives it an ID
    ['POST', 'flow', '/flow', 'homey.flow', (_p, body) => {
      if (!body?.name || !body.trigger || !Array.isArray(body.actions)) throw new HttpError(400, 'Invalid Flow');
      const flow = { ...structuredClone(body), id: randomUUID(), triggerable: true };
      home.onSaveFlow?.(flow);
      home.saveFlow(flow);
      return flow;
    }],
    ['PUT', 'flow', '/flow/:id', 'homey.flow', ({ id }, body) => {
      const flow = Object.assign(need(home.flows, id, 'Flow'), structuredClone(body ?? {}), { id });
      home.saveFlow(flow);
      return flow;
    }],
    ['DELETE', 'flow', '/flow/:id', 'homey.flow', ({ id }) => {
      need(home.flows, id, 'Flow');
      home.deleteFlow(id);
    }],
    ['POST', 'flow', '/advancedflow', 'homey.flow', (_p, body) => {
      if (!body?.name || !body.cards) throw new HttpError(400, 'Invalid AdvancedFlow');
      const flow = { ...structuredClone(body), id: randomUUID(), triggerable: true };
      home.saveFlow(flow, true);
      return flow;
    }],
    ['PUT', 'flow', '/advancedflow/:id', 'homey.flow', ({ id }, body) => {
      const flow = Object.assign(need(home.advancedFlows, id, 'AdvancedFlow'), structuredClone(body ?? {}), { id });
      home.saveFlow(flow, true);
      return flow;
    }],
    ['DELETE', 'flow', '/advancedflow/:id', 'homey.flow', ({ id }) => {
      need(home.advancedFlows, id, 'AdvancedFlow');
      home.deleteFlow(id);
    }],
    ['POST', 'flow', '/flowfolder', 'homey.flow', (_p, body) => {
      const id = randomUUID();
      home.folders[id] = { id, name: body?.name, parent: body?.parent ?? null };
      return home.folders[id];
    }],
    ['POST', 'flow', '/flow/:id/trigger', 'homey.flow.start', ({ id }) => {
      need(home.flows, id, 'Flow');
      home.flowsStarted.push(id);
    }],
    ['POST', 'flow', '/advancedflow/:id/trigger', 'homey.flow.start', ({ id }) => {
      need(home.advancedFlows, id, 'AdvancedFlow');
      home.flowsStarted.push(id);
    }],
    ['GET', 'insights', '/log', 'homey.insights.readonly', () => home.insightLogs],
    ['GET', 'insights', '/log/:uri/:id/entry', 'homey.insights.readonly', ({ uri, id }, _body, query) => {
      const log = need(home.insightLogs, id, 'Log');
      if (log.ownerUri !== uri) throw new HttpError(404, `Log not found: ${uri}/${id}`);
      return home.insightEntries(id, query.get('resolution') ?? 'last24Hours');
    }],
    ['GET', 'moods', '/mood', 'homey.mood.readonly', () => home.moods],
    ['GET', 'moods', '/mood/:id', 'homey.mood.readonly', ({ id }) => need(home.moods, id, 'Mood')],
    ['POST', 'moods', '/mood/:id/set', 'homey.mood.set', ({ id }) => {
      const mood = need(home.moods, id, 'Mood');
      for (const [deviceId, { state }] of Object.entries(mood.devices)) for (const [c, v] of Object.entries(state)) set(deviceId, c, v);
      home.moodsSet.push(id);
    }],
    ['GET', 'logic', '/variable', 'homey.logic.readonly', () => home.variables],
    ['GET', 'logic', '/state', 'homey.system.readonly', () => ({ variables: home.variables })],
    ['PUT', 'logic', '/variable/:id', 'homey.logic', ({ id }, body) => {
      const v = need(home.variables, id, 'Variable');
      // the spec sends the variable as the whole body (root)
      v.value = body?.value;
      return v;
    }],
    ['GET', 'apps', '/app', 'homey.app.readonly', () => home.apps],
    ['GET', 'energy', '/live', 'homey.energy.readonly', (_p, _b, query) => {
      const zone = query.get('zone');
      const items = Object.values(home.devices)
        .filter((d) => 'measure_power' in d.capabilitiesObj && (!zone || d.zone === zone))
        .map((d) => ({ type: 'device', id: d.id, values: { W: d.capabilitiesObj.measure_power.value } }));
      return { items, totalConsumed: items.filter((i) => i.values.W > 0).reduce((n, i) => n + i.values.W, 0) };
    }],
    // energy reports per device (kWh) for a day, an ISO week or a month; their
    // shape is not in homey-api's specification (EnergyReportDay declares only
    // an id): items like the live report's, with kWh instead of W
    ['GET', 'energy', '/report/day', 'homey.energy.readonly', (_p, _b, query) => energyReport(home, 'day', query.get('date'))],
    ['GET', 'energy', '/report/week', 'homey.energy.readonly', (_p, _b, query) => energyReport(home, 'week', query.get('isoWeek'))],
    ['GET', 'energy', '/report/month', 'homey.energy.readonly', (_p, _b, query) => energyReport(home, 'month', query.get('yearMonth'))],
    ['GET', 'energy', '/option/electricityPriceFixed', 'homey.energy.readonly', () => ({ value: home.energy?.priceFixed ?? null })],
    ['GET', 'energy', '/currency', 'homey.energy.readonly', () => ({ currency: home.energy?.currency ?? 'EUR' })],
    ['GET', 'users', '/user', 'homey.user.readonly', () => home.users ?? {}],
    ['GET', 'alarms', '/alarm', 'homey.alarm.readonly', () => home.alarms],
    ['POST', 'alarms', '/alarm', 'homey.alarm', (_p, body) => {
      const id = `alarm-${home.nextAlarm++}`;
      home.alarms[id] = { id, name: null, ...body };
      return home.alarms[id];
    }],
    ['PUT', 'alarms', '/alarm/:id', 'homey.alarm', ({ id }, body) => Object.assign(need(home.alarms, id, 'Alarm'), body)],
    ['DELETE', 'alarms', '/alarm/:id', 'homey.alarm', ({ id }) => {
      need(home.alarms, id, 'Alarm');
      delete home.alarms[id];
    }],
    ['GET', 'zigbee', '/state', 'homey.system.readonly', () => home.zigbee],
  ].map(([method, manager, pattern, scope, handler]) => ({ method, manager, parts: pattern.split('/').filter(Boolean), scope, handler }));
}

const DAYS_IN = { day: 1, week: 7 };

/** An energy report of `kind` for `period` (2026-11-27, 2026-W48, 2026-11), from the home's kWh per device per day. */
function energyReport(home, kind, period) {
  const patterns = { day: /^\d{4}-\d\d-\d\d$/, week: /^\d{4}-W\d\d$/, month: /^\d{4}-\d\d$/ };
  if (!patterns[kind].test(String(period ?? ''))) throw new HttpError(400, `Invalid ${kind}: ${period}`);
  const days = DAYS_IN[kind] ?? new Date(Number(period.slice(0, 4)), Number(period.slice(5, 7)), 0).getDate();
  // the period's age changes the figures a little, so today and yesterday differ
  const factor = 1 + (period.split('').reduce((n, c) => n + c.charCodeAt(0), 0) % 7) / 20;
  const items = [...(home.energy?.dailyKwh ?? new Map())].map(([id, kWh]) => ({ type: 'device', id, values: { kWh: Math.round(kWh * days * factor * 1000) / 1000 } }));
  return { id: `report-${kind}-${period}`, [kind === 'day' ? 'date' : kind === 'week' ? 'isoWeek' : 'yearMonth']: period, items };
}

function match(route, method, manager, parts) {
  if (route.method !== method || route.manager !== manager || route.parts.length !== parts.length) return null;
  const params = {};
  for (let i = 0; i < parts.length; i++) {
    const want = route.parts[i];
    if (want.startsWith(':')) params[want.slice(1)] = decodeURIComponent(parts[i]);
    else if (want !== parts[i]) return null;
  }
  return params;
}

/**
 * Starts the fake Web API for `home` on 127.0.0.1.
 * @param {object} home from createHome()
 * @param {{tokens: Record<string, string[]>}} options token → scopes
 */
export async function startFakeHomeyApi(home, { tokens }) {
  const table = routes(home);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://fake');
      const send = (status, body) => {
        const text = body === undefined ? '' : JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'x-homey-id': home.id, 'x-homey-version': home.system.info.homeyVersion, ...(text ? {} : { 'content-length': 0 }) });
        res.end(text);
      };
      const auth = req.headers.authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
      const record = (status) => home.requests.push({ method: req.method, path: url.pathname, token, status });
      const m = url.pathname.match(/^\/api\/manager\/([^/]+)(\/.*)?$/);
      if (!m) {
        record(404);
        return send(404, { error: 'Not Found' });
      }
      const [, manager, rest = '/'] = m;
      // path parameters may hold colons and are inserted as they are
      const parts = rest.split('/').filter(Boolean);
      let route = null;
      let params = null;
      for (const r of table) {
        params = match(r, req.method, manager, parts);
        if (params) {
          route = r;
          break;
        }
      }
      if (!route) {
        record(404);
        return send(404, { error: `Not Found: ${req.method} ${url.pathname}` });
      }
      if (route.scope !== null) {
        const scopes = token ? tokens[token] : undefined;
        if (!scopes) {
          record(401);
          return send(401, { error: 'invalid_token', error_description: 'Invalid or expired token' });
        }
        if (route.scope && !hasScope(scopes, route.scope)) {
          record(403);
          return send(403, { error: 'Missing Scopes', error_description: `Missing Scopes: ${route.scope}` });
        }
      }
      let body;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        record(400);
        return send(400, { error: 'Invalid JSON' });
      }
      try {
        const out = route.handler(params, body, url.searchParams, token ? tokens[token] : undefined);
        record(out === undefined ? 204 : 200);
        if (out === undefined) {
          res.writeHead(204, { 'x-homey-id': home.id });
          return res.end();
        }
        return send(200, out);
      } catch (err) {
        const status = err.status ?? 500;
        record(status);
        return send(status, { error: err.message });
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
