'use strict';

// The hub's alarms (wake-up alarms).

const { toolFailure } = require('mcp-switchboard/full');

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function describe(a) {
  const days = DAYS.filter((d) => a.repetition?.[d]);
  return { id: a.id, name: a.name ?? null, time: a.time, enabled: a.enabled !== false, repetition: days, ...(a.nextOccurring ? { next: a.nextOccurring } : {}) };
}

function repetition(days) {
  return Object.fromEntries(DAYS.map((d) => [d, days.includes(d)]));
}

module.exports = function alarmTools({ io }) {
  async function getAlarms() {
    const api = await io.api();
    const alarms = Object.values((await api.alarms.getAlarms()) ?? {}).map(describe);
    alarms.sort((a, b) => a.time.localeCompare(b.time));
    return { alarms, count: alarms.length };
  }

  async function createAlarm({ time, name, repetition: days = [], enabled = true }) {
    const alarm = { time, enabled, repetition: repetition(days), ...(name ? { name } : {}) };
    const created = await io.withScope('homey.alarm', 'Creating an alarm', (api) => api.alarms.createAlarm({ alarm }));
    return { created: describe(created ?? alarm) };
  }

  async function existing(alarmId) {
    const api = await io.api();
    const alarms = (await api.alarms.getAlarms()) ?? {};
    return alarms[alarmId] ?? Object.values(alarms).find((a) => a.id === alarmId) ?? null;
  }

  async function updateAlarm({ alarmId, time, name, repetition: days, enabled }) {
    const current = await existing(alarmId);
    if (!current) return toolFailure(`no alarm with ID ${JSON.stringify(alarmId)}`, { hint: 'get_alarms lists them' });
    const alarm = {};
    if (time !== undefined) alarm.time = time;
    if (name !== undefined) alarm.name = name;
    if (days !== undefined) alarm.repetition = repetition(days);
    if (enabled !== undefined) alarm.enabled = enabled;
    if (Object.keys(alarm).length === 0) return toolFailure('nothing to change: give time, name, repetition or enabled');
    const updated = await io.withScope('homey.alarm', 'Changing an alarm', (api) => api.alarms.updateAlarm({ id: alarmId, alarm }));
    return { updated: describe(updated ?? { ...current, ...alarm }) };
  }

  async function deleteAlarm({ alarmId }) {
    const current = await existing(alarmId);
    if (!current) return toolFailure(`no alarm with ID ${JSON.stringify(alarmId)}`, { hint: 'get_alarms lists them' });
    await io.withScope('homey.alarm', 'Deleting an alarm', (api) => api.alarms.deleteAlarm({ id: alarmId }));
    return { deleted: describe(current) };
  }

  return { get_alarms: getAlarms, create_alarm: createAlarm, update_alarm: updateAlarm, delete_alarm: deleteAlarm };
};
