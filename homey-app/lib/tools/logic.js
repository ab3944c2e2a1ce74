'use strict';

// Logic variables. Reading them with getVariables needs homey.logic.readonly,
// which apps lack: the app falls back to the personal API key, then to the
// Logic manager's state (homey.system.readonly). Setting one needs
// homey.logic.

const { toolFailure, validateValue } = require('mcp-switchboard/full');
const { missingScope } = require('../homey-io');
const { lookup } = require('./common');

function isVariable(v) {
  return v && typeof v === 'object' && typeof v.id === 'string' && typeof v.name === 'string' && 'type' in v;
}

module.exports = function logicTools({ io }) {
  async function variables() {
    try {
      return Object.values(await io.withScope('homey.logic.readonly', 'Reading Logic variables', (api) => api.logic.getVariables()));
    } catch (err) {
      if (err.name !== 'ScopeError' && !missingScope(err)) throw err;
    }
    const api = await io.api();
    const state = await api.logic.getState();
    const found = state?.variables ?? state?.variable ?? state ?? {};
    return Object.values(found).filter(isVariable);
  }

  async function getLogicVariables({ filter_type: type, search_name: search }) {
    let list = await variables();
    if (type) list = list.filter((v) => v.type === type);
    if (search) list = list.filter((v) => v.name.toLowerCase().includes(search.toLowerCase()));
    list.sort((a, b) => a.name.localeCompare(b.name));
    return { variables: list.map((v) => ({ id: v.id, name: v.name, type: v.type, value: v.value })), count: list.length };
  }

  async function setLogicVariable({ variableId, name, value }) {
    const list = await variables();
    const found = lookup(list, { id: variableId, name });
    if (!found) return toolFailure(`no Logic variable ${variableId !== undefined ? `with ID ${JSON.stringify(variableId)}` : `named ${JSON.stringify(name)}`}`, { variables: list.map((v) => v.name) });
    const checked = validateValue({ type: found.type }, value);
    if (!checked.valid) return toolFailure(`${found.name} is a ${found.type} variable: ${checked.errors.map((e) => e.message).join('; ')}`, { variable: { id: found.id, type: found.type } });
    await io.withScope('homey.logic', 'Setting a Logic variable', (api) => api.logic.updateVariable({ id: found.id, variable: { value } }),
      `Make a Flow that starts with this app's card "An AI assistant calls a tool" with a parameter, and the Logic action "Set ${found.name}" to that parameter's token.`);
    return { variable: { id: found.id, name: found.name, type: found.type }, value, previous: found.value };
  }

  return { get_logic_variables: getLogicVariables, set_logic_variable: setLogicVariable };
};
