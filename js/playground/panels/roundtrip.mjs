// The round trip: a model response → its calls (parseCalls: names mapped
// back, arguments coerced and validated against the MCP schemas) → MCP
// results (edited here, or run on the connected server) → the history
// items to append (formatResults), as the dialect's wire JSON.
import { sampleCalls, sampleResponse, sampleTool } from '../canned.mjs';
import { Outcome, errorText, h, onSubmitKey, plural } from '../dom.mjs';
import { addMark, jsonView } from '../json-view.mjs';
import { Validator, convert, dialects, formatResults, parseCalls, toolException, toolSuccess } from '../switchboard.mjs';

export const roundTripPanel = {
  id: 'roundtrip',
  title: 'Round trip',
  intro: 'A model response in the dialect’s own shape is read into MCP calls, with the arguments coerced and checked against the tools’ schemas; the MCP results are written back as the items to append to the conversation. The sample response calls the catalog’s tools; edit anything.',

  /** @param {{ store: import('../store.mjs').Store }} ctx */
  create({ store }) {
    const dialect = h('select', { id: 'rt-dialect' }, ...dialects().map((d) => h('option', { value: d, text: d })));
    const toolSelect = h('select', { id: 'rt-tool' });
    const response = h('textarea', { id: 'rt-response', rows: 12, spellcheck: false });
    const results = h('textarea', { id: 'rt-results', rows: 10, spellcheck: false });
    const calls = h('div', { class: 'calls', id: 'rt-calls' });
    const history = h('div', { id: 'rt-history' });
    const callsOutcome = new Outcome({
      id: 'rt-calls-outcome',
      clear: () => {
        calls.replaceChildren();
        history.replaceChildren();
        turn = null;
      },
    });
    const historyOutcome = new Outcome({ id: 'rt-history-outcome', clear: () => history.replaceChildren() });
    const runButton = h('button', { type: 'button', id: 'rt-run', hidden: true });

    /** @type {import('../store.mjs').Catalog | null} */
    let catalog = null;
    /** @type {any} the conversion to the chosen dialect (its names map) */
    let conversion = null;
    /** @type {any} the last turn read */
    let turn = null;
    /** @type {Validator | null} */
    let validator = null;
    // a results text the visitor edited is kept when the calls are read again
    let resultsEdited = false;
    results.addEventListener('input', () => {
      resultsEdited = true;
    });

    /** Converts for the dialect (for its names) and writes the sample response. */
    const reset = () => {
      if (!catalog) return;
      try {
        conversion = convert(catalog.text, { to: /** @type {any} */ (dialect.value) });
      } catch (e) {
        conversion = null;
        callsOutcome.fail(e, `Converting to ${dialect.value}`);
        return;
      }
      // the names the dialect knows the tools by
      const byMcp = new Map(Object.entries(conversion.names).map(([d, m]) => [m, d]));
      const sample = sampleCalls(catalog.tools, toolSelect.value).map((c) => ({ name: byMcp.get(c.tool.name) ?? c.tool.name, args: c.args }));
      const text = sampleResponse(dialect.value, sample);
      response.value = text ?? '';
      resultsEdited = false;
      if (text === null) {
        callsOutcome.fail(`this page has no sample response for ${dialect.value}: paste one`);
        return;
      }
      read();
    };

    /** Reads the calls of the response, then writes the results. */
    const read = () => {
      if (!catalog || !conversion) return;
      try {
        turn = parseCalls(/** @type {any} */ (dialect.value), response.value, conversion, catalog.text);
      } catch (e) {
        callsOutcome.fail(e, 'The response could not be read');
        return;
      }
      const bad = turn.calls.filter((/** @type {any} */ c) => c.error).length;
      callsOutcome.ok(`${plural(turn.calls.length, 'call')}${bad ? `, ${bad} with an error (answered with it)` : ''}.`);
      calls.replaceChildren(...(turn.text ? [h('p', { class: 'model-text' }, h('b', { text: 'Text: ' }), turn.text)] : []), ...turn.calls.map((c, i) => callCard(c, i, catalog, validator)));
      if (!resultsEdited) results.value = JSON.stringify(sampleResults(turn.calls), null, 2);
      runButton.hidden = !catalog.upstream;
      runButton.textContent = `Run the calls on ${catalog.title}`;
      answer();
    };

    /** Writes the results as the dialect's history items. */
    const answer = () => {
      if (!turn) return;
      let given;
      try {
        given = JSON.parse(results.value);
      } catch (e) {
        historyOutcome.fail(e, 'The results are not JSON');
        return;
      }
      try {
        const out = formatResults(/** @type {any} */ (dialect.value), turn, given);
        const items = [...out.assistant, ...out.results];
        historyOutcome.ok(`${plural(out.assistant.length, 'assistant item')} and ${plural(out.results.length, 'result item')} to append to the conversation, in this order.`);
        history.replaceChildren(jsonView(items, { label: 'history items' }));
      } catch (e) {
        historyOutcome.fail(e, 'The results could not be written');
      }
    };

    /** Runs the calls on the connected server; its results replace the text. */
    const run = async () => {
      const up = catalog?.upstream;
      if (!turn || !up || up.closed) return historyOutcome.fail('not connected to a server: connect in the Catalog panel');
      const calling = turn;
      historyOutcome.busy(`Calling ${plural(calling.calls.length, 'tool')} on ${catalog?.title}…`);
      const out = {};
      for (const c of calling.calls) {
        if (c.error || !c.request) {
          out[c.id] = null;
          continue;
        }
        try {
          out[c.id] = await up.call('tools/call', c.request.params);
        } catch (e) {
          out[c.id] = toolException(errorText(e));
        }
      }
      if (turn !== calling) return;
      results.value = JSON.stringify(out, null, 2);
      resultsEdited = true;
      answer();
    };
    runButton.addEventListener('click', run);

    dialect.addEventListener('change', reset);
    toolSelect.addEventListener('change', reset);
    onSubmitKey(response, read);
    onSubmitKey(results, answer);

    store.on((c) => {
      catalog = c;
      validator?.free();
      validator = null;
      try {
        validator = new Validator(c.text);
      } catch {
        // parseCalls reports the same problem
      }
      const first = sampleTool(c.tools);
      toolSelect.replaceChildren(...c.tools.map((t) => h('option', { value: t.name, text: t.name })));
      if (first) toolSelect.value = first.name;
      reset();
    });

    const el = h('div', {},
      h('div', { class: 'row controls' },
        h('label', { for: 'rt-dialect', text: 'Dialect' }), dialect,
        h('label', { for: 'rt-tool', text: 'Sample calls' }), toolSelect),
      h('ol', { class: 'steps' },
        h('li', {},
          h('h3', {}, h('label', { for: 'rt-response', text: '1. The model’s response' })),
          response,
          h('div', { class: 'row' },
            h('button', { type: 'button', id: 'rt-read', text: 'Read the calls', onclick: read }),
            h('button', { type: 'button', class: 'quiet', id: 'rt-reset', text: 'Sample response', onclick: reset }),
            h('span', { class: 'muted', text: 'Ctrl+Enter reads.' }))),
        h('li', {}, h('h3', { text: '2. The calls (parseCalls)' }), callsOutcome.el, calls),
        h('li', {},
          h('h3', {}, h('label', { for: 'rt-results', text: '3. The MCP results, by call id' })),
          results,
          h('div', { class: 'row' },
            h('button', { type: 'button', id: 'rt-answer', text: 'Write the results', onclick: answer }),
            h('button', { type: 'button', class: 'quiet', id: 'rt-sample-results', text: 'Sample results', onclick: () => { resultsEdited = false; read(); } }),
            runButton)),
        h('li', {}, h('h3', { text: '4. The history items (formatResults)' }), historyOutcome.el, history)),
    );
    return { el };
  },
};

/**
 * Sample MCP results for the calls: a success for the first, an error result for the second, and
 * nothing for a call that carries its own error (it is answered with that error).
 * @param {any[]} calls
 */
function sampleResults(calls) {
  /** @type {{ [id: string]: unknown }} */
  const out = {};
  let n = 0;
  for (const c of calls) {
    if (c.error) out[c.id] = null;
    else out[c.id] = n++ === 0 ? toolSuccess({ done: c.name }) : toolException(`${c.name} failed: the device did not answer`);
  }
  return out;
}

/**
 * One call: its names and id, its arguments with the coercions and validation errors at their places,
 * and the MCP request it makes.
 * @param {any} call
 * @param {number} i
 * @param {import('../store.mjs').Catalog | null} catalog
 * @param {Validator | null} validator
 */
function callCard(call, i, catalog, validator) {
  const marks = new Map();
  for (const c of call.coercions ?? []) {
    addMark(marks, c.pointer, { kind: 'coerce', label: 'coerced', text: `${JSON.stringify(c.from)} → ${c.to === null ? 'removed' : JSON.stringify(c.to)}: ${c.reason}` });
  }
  if (call.error && validator && catalog?.tool(call.name)) {
    try {
      for (const e of validator.validate(call.name, call.arguments).errors) addMark(marks, e.pointer, { kind: 'error', label: e.keyword, text: e.message });
    } catch {
      // the call's own error says it
    }
  }
  const renamed = call.dialectName !== call.name ? h('span', { class: 'muted', text: ` (the model wrote ${call.dialectName})` }) : null;
  return h('article', { class: `call${call.error ? ' bad' : ''}`, dataset: { call: call.id } },
    h('header', {},
      h('h4', {}, `#${i + 1} `, h('code', { text: call.name }), renamed),
      h('span', { class: 'badge', text: `id ${call.id}${call.idFromModel ? '' : ' (made here: the model gave none)'}` }),
      h('span', { class: `badge ${call.error ? 'bad' : 'good'}`, text: call.error ? 'error' : 'valid' })),
    call.error ? h('p', { class: 'error', text: call.error }) : null,
    jsonView(call.arguments, { marks, label: `arguments of call ${i + 1}` }),
    call.request ? h('details', {}, h('summary', { text: 'The MCP request' }), jsonView(call.request, { label: `request of call ${i + 1}` })) : null,
  );
}
