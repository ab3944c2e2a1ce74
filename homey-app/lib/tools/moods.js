'use strict';

// Moods (light scenes): reading them works with the app's token; activating
// one needs the homey.mood.set scope.

const { toolFailure } = require('mcp-switchboard/full');
const { lookup } = require('./common');
const { checkMood } = require('../guard');

module.exports = function moodTools({ io }) {
  async function moods() {
    const api = await io.api();
    const [all, home] = await Promise.all([api.moods.getMoods(), io.visibility()]);
    const zonesById = new Map(home.zones.map((z) => [z.id, z]));
    const devicesById = new Map(home.devices.map((d) => [d.id, d]));
    // a mood of a hidden zone, or one that sets a device of a hidden zone, is not there
    const allowAll = { ...home, allowed: new Set(home.devicesById.keys()) };
    return Object.values(all ?? {})
      .filter((m) => (!m.zone || zonesById.has(m.zone)) && !checkMood(m, allowAll).hidden)
      .map((m) => ({ mood: m, zone: zonesById.get(m.zone) ?? null, devicesById }));
  }

  function describe({ mood, zone, devicesById }) {
    const devices = Object.entries(mood.devices ?? {})
      .filter(([id]) => devicesById.has(id))
      .map(([id, setting]) => ({ id, name: devicesById.get(id).name, sets: setting?.state ?? setting ?? {} }));
    return { id: mood.id, name: mood.name, zone: zone ? { id: zone.id, name: zone.name } : null, ...(mood.preset ? { preset: mood.preset } : {}), devices };
  }

  async function getMoodDetails({ moodId, moodName, zoneId }) {
    let list = await moods();
    if (moodId !== undefined) list = list.filter((m) => m.mood.id === moodId);
    if (moodName !== undefined) list = list.filter((m) => m.mood.name.toLowerCase().includes(moodName.trim().toLowerCase()));
    if (zoneId !== undefined) list = list.filter((m) => m.mood.zone === zoneId);
    return { moods: list.map(describe), count: list.length };
  }

  async function findDeviceInMoods({ deviceId }) {
    const device = await io.device(deviceId);
    const list = (await moods()).filter((m) => deviceId in (m.mood.devices ?? {}));
    return {
      device: { id: device.id, name: device.name },
      moods: list.map((m) => ({ id: m.mood.id, name: m.mood.name, zone: m.zone?.name ?? null, sets: m.mood.devices[deviceId]?.state ?? m.mood.devices[deviceId] })),
      count: list.length,
    };
  }

  async function setMood({ moodId, moodName }) {
    const list = await moods();
    const found = lookup(list, { id: moodId, name: moodName }, (m) => m.mood);
    if (!found) {
      return toolFailure(`no mood ${moodId !== undefined ? `with ID ${JSON.stringify(moodId)}` : `named ${JSON.stringify(moodName)}`}`, {
        moods: list.map((m) => m.mood.name),
      });
    }
    const { mood } = found;
    // one that would unlock, open or disarm is refused (ProtectedError)
    checkMood(mood, await io.visibility());
    const cardHint = `Make a Flow that starts with this app's card "An AI assistant calls a tool" (tool name e.g. mood_${mood.name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}) and has the action "Set mood ${mood.name}": it appears as a tool of its own.`;
    await io.withScope('homey.mood.set', 'Activating a mood', (api) => api.moods.setMood({ id: mood.id }), cardHint);
    return { activated: true, mood: describe(found) };
  }

  return { get_mood_details: getMoodDetails, find_device_in_moods: findDeviceInMoods, set_mood: setMood };
};
