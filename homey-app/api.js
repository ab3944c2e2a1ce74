'use strict';

// The app's Web API routes (/api/app/<id>/...), called with a Homey token:
// the MCP endpoint and what the settings page needs.

module.exports = {
  async mcp({ homey, body }) {
    return homey.app.handleWebApi(body);
  },

  async getStatus({ homey }) {
    return homey.app.status();
  },

  async regenerateToken({ homey }) {
    return homey.app.regenerateToken();
  },

  async testPersonalKey({ homey }) {
    return homey.app.testPersonalKey();
  },

  async getZones({ homey }) {
    return homey.app.zones();
  },

  async getProtectedDevices({ homey }) {
    return homey.app.protectedDevices();
  },
};
