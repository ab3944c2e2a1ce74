'use strict';

// The household: a note on Homey's timeline, and who is home.

module.exports = function householdTools({ io, homey }) {
  /** Writes `text` to the timeline (the Apps SDK's notifications: shown in the Homey app, pushed to phones that follow the app). */
  async function createNotification({ text }) {
    const excerpt = text.trim();
    await homey.notifications.createNotification({ excerpt });
    return { notified: true, text: excerpt };
  }

  /**
   * Who is home and who is asleep, from the hub's users (the Web API's
   * users manager: homey.user.readonly). Tried with the app's token, then the
   * personal API key; otherwise a ScopeError that says how to get it.
   */
  async function getPresence() {
    const users = await io.withScope('homey.user.readonly', 'Reading who is home', (api) => api.users.getUsers(),
      'Or make a Flow that starts with this app\'s card "An AI assistant calls a tool" and answers with the card "Answer the AI assistant", using the presence tokens of Homey\'s "Someone is home" conditions.');
    const list = Object.values(users ?? {})
      .filter((u) => u && typeof u === 'object' && u.enabled !== false)
      .map((u) => ({ name: u.name ?? u.id, present: u.present === true, asleep: u.asleep === true }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    return { home: list.filter((u) => u.present).map((u) => u.name), away: list.filter((u) => !u.present).map((u) => u.name), users: list, anyoneHome: list.some((u) => u.present) };
  }

  return { create_notification: createNotification, get_presence: getPresence };
};
