'use strict';

// Homey Energy's live report: power per device and zone, in watts.

module.exports = function energyTools({ io }) {
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
  return { get_energy_report: getEnergyReport };
};
