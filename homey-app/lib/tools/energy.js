'use strict';

// Homey Energy: the live report (power per device and zone, in watts) and
// the day, week and month reports (energy per device, in kWh, with the cost
// where the hub has an electricity price).

const { time } = require('./common');

const round = (n, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The hub's calendar date of `at` in `timeZone` as [year, month, day]. */
function localDate(at, timeZone) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (type) => Number(parts.find((p) => p.type === type)?.value);
  return [get('year'), get('month'), get('day')];
}

/** "2026-11-27" for a UTC date holding a calendar day. */
const dayText = (d) => d.toISOString().slice(0, 10);

/** The ISO 8601 week of a calendar day: "2026-W48". */
function isoWeek(d) {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const weekday = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - weekday); // the week's Thursday decides its year
  const first = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  const week = Math.ceil(((t - first) / 86_400_000 + 1) / 7);
  return `${t.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Which report a period asks for: {kind, key, label} (key is the Web API's argument). */
function reportFor(period, now, timeZone) {
  const [y, m, d] = localDate(now, timeZone);
  const today = new Date(Date.UTC(y, m - 1, d));
  const shift = (days) => new Date(today.getTime() + days * 86_400_000);
  switch (period) {
    case 'yesterday':
      return { kind: 'day', key: dayText(shift(-1)) };
    case 'this_week':
      return { kind: 'week', key: isoWeek(today) };
    case 'last_week':
      return { kind: 'week', key: isoWeek(shift(-7)) };
    case 'this_month':
      return { kind: 'month', key: `${y}-${String(m).padStart(2, '0')}` };
    case 'last_month':
      return { kind: 'month', key: m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}` };
    default:
      return { kind: 'day', key: dayText(today) };
  }
}

/** A number from an option or currency answer that may be the value itself or {value}. */
function optionValue(v) {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof v.value === 'number') return v.value;
  return null;
}

/** The kWh and cost of one report item (the report's shape is not in the Web API's specification: read leniently). */
function itemEnergy(item) {
  const v = item?.values ?? item ?? {};
  const kWh = [v.kWh, v.meter_power, v.value, item?.kWh].find((x) => typeof x === 'number');
  const cost = [v.cost, item?.cost].find((x) => typeof x === 'number');
  return { kWh: kWh ?? null, cost: cost ?? null };
}

module.exports = function energyTools({ io, homey }) {
  async function getEnergyReport({ zoneId }) {
    const api = await io.api();
    const [report, home] = await Promise.all([api.energy.getLiveReport(zoneId !== undefined ? { zone: zoneId } : {}), io.visibility()]);
    let ids = null;
    if (zoneId !== undefined) ids = (await io.zoneWithin(zoneId)).ids;
    const devicesById = new Map(home.devices.map((d) => [d.id, d]));
    const zonesById = new Map(home.zones.map((z) => [z.id, z]));
    const devices = [];
    for (const item of report?.items ?? []) {
      if (item?.type !== 'device') continue;
      const d = devicesById.get(item.id);
      if (!d) continue; // hidden by the settings, or gone
      if (ids && !ids.has(d.zone)) continue;
      const watts = item.values?.W ?? null;
      devices.push({ id: d.id, name: d.name, zone: zonesById.get(d.zone)?.name ?? null, watts });
    }
    devices.sort((a, b) => Math.abs(b.watts ?? 0) - Math.abs(a.watts ?? 0));
    const byZone = {};
    for (const d of devices) byZone[d.zone ?? '?'] = Math.round(((byZone[d.zone ?? '?'] ?? 0) + (d.watts ?? 0)) * 10) / 10;
    const consumed = devices.filter((d) => (d.watts ?? 0) > 0).reduce((n, d) => n + d.watts, 0);
    const produced = -devices.filter((d) => (d.watts ?? 0) < 0).reduce((n, d) => n + d.watts, 0);
    return {
      consumingWatts: Math.round(consumed * 10) / 10,
      producingWatts: Math.round(produced * 10) / 10,
      // the hub's own total counts every device: shown only when no zone is hidden
      ...(typeof report?.totalConsumed === 'number' && zoneId === undefined && home.hiddenDevices.size === 0 ? { hubTotalWatts: report.totalConsumed } : {}),
      byZone,
      devices,
    };
  }
  async function getEnergyUsage({ period = 'today', zoneId, deviceIds, top = 10 }) {
    const timeZone = homey?.clock?.getTimezone?.() || 'UTC';
    const { kind, key } = reportFor(period, new Date(), timeZone);
    const api = await io.api();
    const read = { day: () => api.energy.getReportDay({ date: key }), week: () => api.energy.getReportWeek({ isoWeek: key }), month: () => api.energy.getReportMonth({ yearMonth: key }) }[kind];
    const [report, home, price, currency] = await Promise.all([
      read(),
      io.visibility(),
      api.energy.getOptionElectricityPriceFixed().catch(() => null),
      api.energy.getCurrency().catch(() => null),
    ]);
    let ids = null;
    if (zoneId !== undefined) ids = (await io.zoneWithin(zoneId)).ids;
    const wanted = deviceIds ? new Set(deviceIds) : null;
    const zonesById = home.zonesById;
    const items = Array.isArray(report?.items) ? report.items : Object.values(report?.items ?? {});
    const perKWh = optionValue(price);
    const devices = [];
    const meters = [];
    for (const item of items) {
      if (item?.type !== undefined && item.type !== 'device') continue;
      const d = home.devicesById.get(item?.id);
      if (!d || home.hiddenDevices.has(d.id)) continue; // gone, or hidden by the settings
      if (ids && !ids.has(d.zone)) continue;
      if (wanted && !wanted.has(d.id)) continue;
      const { kWh, cost } = itemEnergy(item);
      if (kWh === null) continue;
      const entry = { id: d.id, name: d.name, zone: zonesById[d.zone]?.name ?? null, kWh: round(kWh), ...(cost !== null ? { cost: round(cost, 2) } : perKWh !== null && kWh > 0 ? { cost: round(kWh * perKWh, 2) } : {}) };
      // a home's meter (cumulative) measures everything else: counted apart, never added to the devices
      (d.energyObj?.cumulative === true ? meters : devices).push(entry);
    }
    devices.sort((a, b) => Math.abs(b.kWh) - Math.abs(a.kWh));
    const consumed = devices.filter((d) => d.kWh > 0).reduce((n, d) => n + d.kWh, 0);
    const produced = -devices.filter((d) => d.kWh < 0).reduce((n, d) => n + d.kWh, 0);
    const byZone = {};
    for (const d of devices) byZone[d.zone ?? '?'] = round((byZone[d.zone ?? '?'] ?? 0) + d.kWh);
    const costs = devices.filter((d) => typeof d.cost === 'number');
    const currencyCode = typeof currency === 'string' ? currency : currency?.currency ?? currency?.code ?? null;
    return {
      period,
      [kind === 'day' ? 'date' : kind === 'week' ? 'isoWeek' : 'month']: key,
      timeZone,
      unit: 'kWh',
      consumedKWh: round(consumed),
      producedKWh: round(produced),
      ...(costs.length ? { cost: { total: round(costs.reduce((n, d) => n + d.cost, 0), 2), currency: currencyCode, ...(perKWh !== null ? { pricePerKWh: perKWh } : {}) } } : {}),
      byZone,
      ...(meters.length ? { meters } : {}),
      deviceCount: devices.length,
      devices: devices.slice(0, top),
      at: time(Date.now()),
    };
  }

  return { get_energy_report: getEnergyReport, get_energy_usage: getEnergyUsage };
};
