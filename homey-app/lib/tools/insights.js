'use strict';

// Insights: the history logs and their values.

const { toolFailure } = require('mcp-switchboard/full');
const { time } = require('./common');

const MAX_POINTS = 200;

/** The owner URI of a log: "homey:device:<id>" from its ID or its fields. */
function logUri(log) {
  if (typeof log.ownerUri === 'string') return log.ownerUri;
  if (typeof log.uri === 'string') return log.uri;
  return String(log.id).split(':').slice(0, 3).join(':');
}

function round(n) {
  return Math.round(n * 1000) / 1000;
}

module.exports = function insightTools({ io }) {
  /** The logs of visible devices (and of the hub's own owners), with their device. */
  async function visibleLogs() {
    const api = await io.api();
    const [logs, { devices }] = await Promise.all([api.insights.getLogs(), io.home()]);
    const devicesById = new Map(devices.map((d) => [d.id, d]));
    const out = [];
    for (const log of Object.values(logs ?? {})) {
      const uri = logUri(log);
      let device = null;
      if (uri.startsWith('homey:device:')) {
        device = devicesById.get(uri.slice('homey:device:'.length));
        if (!device) continue; // hidden by the settings, or gone
      }
      out.push({ log, uri, device });
    }
    return out;
  }

  async function getInsightLogs({ deviceIds, zoneId, logType }) {
    let logs = await visibleLogs();
    if (deviceIds) logs = logs.filter((l) => l.device && deviceIds.includes(l.device.id));
    if (zoneId !== undefined) {
      const { ids } = await io.zoneWithin(zoneId);
      logs = logs.filter((l) => l.device && ids.has(l.device.zone));
    }
    if (logType) logs = logs.filter((l) => l.log.type === logType);
    return {
      logs: logs.map(({ log, uri, device }) => ({
        id: log.id,
        title: log.title ?? log.id,
        type: log.type ?? null,
        ...(log.units ? { units: log.units } : {}),
        owner: device ? { device: device.id, name: device.name } : { uri },
        ...(log.lastValue !== undefined ? { lastValue: log.lastValue } : {}),
      })),
      count: logs.length,
    };
  }

  async function getInsightData({ logIds, resolution = 'last24Hours' }) {
    const api = await io.api();
    const logs = await visibleLogs();
    const byId = new Map(logs.map((l) => [l.log.id, l]));
    const results = [];
    for (const id of logIds) {
      const found = byId.get(id);
      if (!found) {
        results.push({ id, error: 'no such log (get_insight_logs lists them)' });
        continue;
      }
      try {
        const data = await api.insights.getLogEntries({ uri: found.uri, id, resolution });
        const values = (data?.values ?? []).filter((p) => p && p.v !== null && p.v !== undefined);
        const numbers = values.map((p) => p.v).filter((v) => typeof v === 'number');
        // at most MAX_POINTS points: every n-th, the last one always kept
        const step = Math.max(1, Math.ceil(values.length / MAX_POINTS));
        const points = values.filter((_, i) => i % step === 0 || i === values.length - 1).map((p) => ({ t: time(p.t), v: p.v }));
        results.push({
          id,
          title: found.log.title ?? id,
          ...(found.log.units ? { units: found.log.units } : {}),
          resolution,
          count: values.length,
          ...(numbers.length
            ? { min: Math.min(...numbers), max: Math.max(...numbers), average: round(numbers.reduce((a, b) => a + b, 0) / numbers.length) }
            : {}),
          last: values.length ? { t: time(values[values.length - 1].t), v: values[values.length - 1].v } : null,
          ...(step > 1 ? { sampledEvery: step } : {}),
          points,
        });
      } catch (err) {
        results.push({ id, error: err.message });
      }
    }
    if (results.every((r) => r.error)) return toolFailure('none of the logs could be read', { results });
    return { logs: results };
  }

  return { get_insight_logs: getInsightLogs, get_insight_data: getInsightData };
};
