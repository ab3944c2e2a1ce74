// Fake model servers on loopback, in each provider's real wire format (from
// the vendors' SDK types: openai, @anthropic-ai/sdk, @google/genai): Gemini
// generateContent and streamGenerateContent?alt=sse, OpenAI Chat
// Completions (and the prompted dialect over it), OpenAI Responses and
// Anthropic Messages, whole or streamed, each answer scripted per test.
// Any test can import it (the package's, the playground's, the Homey
// app's), and every session is recorded: requests and the responses sent.
//
//   const model = await startFakeModel('anthropic', [
//     { calls: [{ name: 'set_light', arguments: { deviceId: 'lamp', state: 'on' } }] },
//     { text: 'The lamp is on.' },
//   ], { key: 'test-key' });
//   // model.baseUrl in the vendor SDK's convention; model.requests; model.log; await model.close()
//
// A step answers one request:
//   { text }                       the model answers
//   { calls: [{name, arguments, id?, thoughtSignature?}], text? }   it asks for tools (several in one turn)
//   { finish: 'max_tokens' | 'refusal' | 'safety', text? }          it stops early
//   { status, message, retryAfter?, code? }                          an error in the provider's error shape
//   { cut: true, ... }             the response breaks off in the middle (a stream: after its first half)
//   { raw: { status, headers, body } }                              exactly these bytes
//   (request) => step              decided from the request (its parsed body, path, headers)
// With no step left, the server answers 500 in the provider's shape.
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';

/** The providers and how their base URL is written (the vendor SDKs' convention). */
export const PROVIDERS = ['gemini', 'openai', 'openai-responses', 'anthropic', 'prompted'];

/**
 * Starts a fake model server for `provider` answering `steps` in order.
 * @param {string} provider gemini | openai | openai-responses | anthropic | prompted
 * @param {Array<object | ((request: object) => object)>} steps
 * @param {{ key?: string, chunk?: number, delayMs?: number, cors?: boolean }} [options] `key`: the API key the
 *   server requires (in the provider's header); `chunk`: bytes per write of a stream; `delayMs` between stream
 *   events; `cors`: answer preflights and allow any origin (for a page's fetch)
 */
export async function startFakeModel(provider, steps, options = {}) {
  if (!PROVIDERS.includes(provider)) throw new Error(`unknown provider ${provider}`);
  const wire = WIRES[provider === 'prompted' ? 'openai' : provider];
  const queue = [...steps];
  const requests = [];
  const log = [];
  let served = 0;
  const server = createServer(async (req, res) => {
    if (options.cors) {
      // for pages on another origin (a browser's fetch): preflights answered, responses readable
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-expose-headers', 'retry-after, retry-after-ms');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*', 'access-control-max-age': '600' });
        return res.end();
      }
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const request = { method: req.method, path: req.url, headers: req.headers, body, text };
    requests.push(request);
    const entry = { request: { method: req.method, path: req.url, headers: { ...req.headers }, body }, response: null };
    log.push(entry);
    const send = (status, headers, payload, cut) => {
      entry.response = { status, headers, body: payload };
      res.writeHead(status, headers);
      if (cut) {
        res.write(payload.slice(0, Math.floor(payload.length / 2)));
        setTimeout(() => res.destroy(), 20);
      } else {
        res.end(payload);
      }
    };
    const route = wire.route(req.method, req.url);
    if (!route) return send(404, { 'content-type': 'application/json' }, JSON.stringify(wire.error(404, `no route ${req.method} ${req.url}`)));
    if (options.key !== undefined && wire.key(req.headers) !== options.key) {
      return send(401, { 'content-type': 'application/json' }, JSON.stringify(wire.error(401, 'Incorrect API key provided')));
    }
    let step = queue.shift();
    served++;
    if (typeof step === 'function') step = step(request);
    if (step === undefined) step = { status: 500, message: 'the fake model has no answer scripted for this request' };
    if (step.raw) return send(step.raw.status ?? 200, step.raw.headers ?? { 'content-type': 'application/json' }, step.raw.body ?? '');
    if (step.status) {
      const headers = { 'content-type': 'application/json' };
      if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
      if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
      return send(step.status, headers, JSON.stringify(wire.error(step.status, step.message ?? 'error', step)));
    }
    const model = body?.model ?? route.model ?? 'fake-model';
    const answer = provider === 'prompted' ? promptedStep(step) : step;
    const n = served;
    if (route.stream || body?.stream === true) {
      res.socket?.setNoDelay(true);
      const events = wire.stream(answer, model, n);
      const frames = events.map((e) => (e.event ? `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n` : `data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`));
      const payload = frames.join('');
      entry.response = { status: 200, headers: { 'content-type': 'text/event-stream' }, body: payload };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const upto = step.cut ? Math.max(1, Math.floor(frames.length / 2)) : frames.length;
      for (const frame of frames.slice(0, upto)) {
        // frames split in the middle too: readers must join them
        const size = options.chunk ?? frame.length;
        for (let i = 0; i < frame.length; i += size) res.write(frame.slice(i, i + size));
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      }
      if (step.cut) setTimeout(() => res.destroy(), 20);
      else res.end();
      return;
    }
    send(200, { 'content-type': 'application/json' }, JSON.stringify(wire.whole(answer, model, n)), step.cut);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const root = `http://127.0.0.1:${server.address().port}`;
  return {
    provider,
    root,
    /** The base URL as the vendor's SDK takes it: OpenAI's includes /v1. */
    baseUrl: ['openai', 'openai-responses', 'prompted'].includes(provider) ? `${root}/v1` : root,
    requests,
    log,
    /** Steps not yet answered. */
    get left() {
      return queue.length;
    },
    /** Writes the recorded session (every request and the response sent) as JSON. */
    save(file) {
      writeFileSync(file, JSON.stringify({ provider, log }, null, 2));
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve(undefined));
    }),
  };
}

/** The prompted dialect's answer: the calls as the JSON reply format its prompt asks for, in the text. */
function promptedStep(step) {
  if (!step.calls) return step;
  const calls = step.calls.map((c) => ({ name: c.name, arguments: c.arguments ?? {} }));
  return { ...step, calls: undefined, text: `${step.text ? `${step.text}\n` : ''}\`\`\`json\n${JSON.stringify({ tool_calls: calls })}\n\`\`\`` };
}

/** Splits text into a few pieces, as a stream sends it. */
function pieces(text, n = 3) {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const usage = { input: 12, output: 7 };
const argsText = (c) => (typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}));

const WIRES = {
  gemini: {
    route(method, url) {
      const m = /^\/v1beta\/models\/([^/:?]+):(generateContent|streamGenerateContent)(\?alt=sse)?$/.exec(url);
      if (method !== 'POST' || !m) return null;
      if (m[2] === 'streamGenerateContent' && !m[3]) return null;
      return { model: decodeURIComponent(m[1]), stream: m[2] === 'streamGenerateContent' };
    },
    key: (h) => h['x-goog-api-key'],
    parts(step) {
      const parts = [];
      if (step.text) parts.push({ text: step.text });
      for (const c of step.calls ?? []) {
        const part = { functionCall: { name: c.name, args: c.arguments ?? {}, ...(c.id ? { id: c.id } : {}) } };
        if (c.thoughtSignature) part.thoughtSignature = c.thoughtSignature;
        parts.push(part);
      }
      return parts;
    },
    finish(step) {
      return { max_tokens: 'MAX_TOKENS', safety: 'SAFETY', refusal: 'SAFETY' }[step.finish] ?? 'STOP';
    },
    whole(step, model) {
      return {
        candidates: [{ content: { role: 'model', parts: this.parts(step) }, finishReason: this.finish(step), index: 0 }],
        usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
        modelVersion: model,
        responseId: 'fake-response',
      };
    },
    stream(step, model) {
      const chunks = pieces(step.text).map((t) => ({ data: { candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }], modelVersion: model } }));
      const calls = this.parts({ calls: step.calls });
      chunks.push({
        data: {
          candidates: [{ content: { role: 'model', parts: calls.length ? calls : [{ text: '' }] }, finishReason: this.finish(step), index: 0 }],
          usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
          modelVersion: model,
        },
      });
      return chunks;
    },
    error(status, message, step = {}) {
      const codes = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };
      const error = { code: status, message, status: step.code ?? codes[status] ?? 'UNKNOWN' };
      if (step.retryDelay) error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: step.retryDelay }];
      return { error };
    },
  },
  openai: {
    route: (method, url) => (method === 'POST' && url === '/v1/chat/completions' ? {} : null),
    key: (h) => (h.authorization ?? '').replace(/^Bearer /, ''),
    toolCalls(step, n) {
      return (step.calls ?? []).map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: argsText(c) } }));
    },
    finish(step) {
      if (step.calls?.length) return 'tool_calls';
      return { max_tokens: 'length', safety: 'content_filter' }[step.finish] ?? 'stop';
    },
    whole(step, model, n) {
      const calls = this.toolCalls(step, n);
      const message = { role: 'assistant', content: step.finish === 'refusal' ? null : (step.text ?? null), refusal: step.finish === 'refusal' ? (step.text ?? 'I cannot help with that.') : null, annotations: [] };
      if (calls.length) message.tool_calls = calls;
      return {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 1700000000,
        model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: this.finish(step) }],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      };
    },
    stream(step, model, n) {
      const chunk = (delta, finish = null) => ({ data: { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1700000000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] } });
      const out = [chunk({ role: 'assistant', content: '' })];
      if (step.finish === 'refusal') for (const p of pieces(step.text ?? 'I cannot help with that.')) out.push(chunk({ refusal: p }));
      else for (const p of pieces(step.text)) out.push(chunk({ content: p }));
      this.toolCalls(step, n).forEach((c, index) => {
        out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
        for (const p of pieces(c.function.arguments)) out.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
      });
      out.push(chunk({}, this.finish(step)));
      out.push({ data: { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1700000000, model, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } } });
      out.push({ data: '[DONE]' });
      return out;
    },
    error(status, message, step = {}) {
      const types = { 400: 'invalid_request_error', 401: 'invalid_request_error', 404: 'invalid_request_error', 429: 'requests', 500: 'server_error' };
      const codes = { 401: 'invalid_api_key', 429: 'rate_limit_exceeded' };
      return { error: { message, type: types[status] ?? 'server_error', param: null, code: step.code ?? codes[status] ?? null } };
    },
  },
  'openai-responses': {
    route: (method, url) => (method === 'POST' && url === '/v1/responses' ? {} : null),
    key: (h) => (h.authorization ?? '').replace(/^Bearer /, ''),
    items(step, n) {
      const items = [];
      if (step.text || step.finish === 'refusal') {
        const content = step.finish === 'refusal' ? [{ type: 'refusal', refusal: step.text ?? 'I cannot help with that.' }] : [{ type: 'output_text', text: step.text, annotations: [], logprobs: [] }];
        items.push({ type: 'message', id: `msg_${n}`, status: 'completed', role: 'assistant', content });
      }
      (step.calls ?? []).forEach((c, i) => items.push({ type: 'function_call', id: `fc_${n}_${i}`, call_id: c.id ?? `call_${n}_${i}`, name: c.name, arguments: argsText(c), status: 'completed' }));
      return items;
    },
    response(step, model, n, output) {
      const incomplete = { max_tokens: 'max_output_tokens', safety: 'content_filter' }[step.finish];
      return {
        id: `resp_${n}`,
        object: 'response',
        created_at: 1700000000,
        status: incomplete ? 'incomplete' : 'completed',
        incomplete_details: incomplete ? { reason: incomplete } : null,
        error: null,
        model,
        output,
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
        usage: { input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.input + usage.output, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      };
    },
    whole(step, model, n) {
      return this.response(step, model, n, this.items(step, n));
    },
    stream(step, model, n) {
      let seq = 0;
      const ev = (type, data) => ({ event: type, data: { type, sequence_number: seq++, ...data } });
      const items = this.items(step, n);
      const out = [ev('response.created', { response: { ...this.response(step, model, n, []), status: 'in_progress' } }), ev('response.in_progress', { response: { ...this.response(step, model, n, []), status: 'in_progress' } })];
      items.forEach((item, output_index) => {
        if (item.type === 'message') {
          out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
          const part = item.content[0];
          out.push(ev('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: part.type === 'refusal' ? { type: 'refusal', refusal: '' } : { type: 'output_text', text: '', annotations: [] } }));
          if (part.type === 'refusal') for (const p of pieces(part.refusal)) out.push(ev('response.refusal.delta', { item_id: item.id, output_index, content_index: 0, delta: p }));
          else for (const p of pieces(part.text)) out.push(ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: p, logprobs: [] }));
          if (part.type === 'output_text') out.push(ev('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text: part.text, logprobs: [] }));
          out.push(ev('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part }));
        } else {
          out.push(ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }));
          for (const p of pieces(item.arguments)) out.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: p }));
          out.push(ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments, name: item.name }));
        }
        out.push(ev('response.output_item.done', { output_index, item }));
      });
      const final = this.response(step, model, n, items);
      out.push(ev(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final }));
      return out;
    },
    error(status, message, step) {
      return WIRES.openai.error(status, message, step);
    },
  },
  anthropic: {
    route: (method, url) => (method === 'POST' && url === '/v1/messages' ? {} : null),
    key: (h) => h['x-api-key'],
    content(step, n) {
      const content = [];
      if (step.text) content.push({ type: 'text', text: step.text });
      (step.calls ?? []).forEach((c, i) => content.push({ type: 'tool_use', id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: c.arguments ?? {} }));
      return content;
    },
    stop(step) {
      if (step.calls?.length) return 'tool_use';
      return { max_tokens: 'max_tokens', refusal: 'refusal', safety: 'refusal' }[step.finish] ?? 'end_turn';
    },
    message(step, model, n, content, stop) {
      return { id: `msg_${n}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } };
    },
    whole(step, model, n) {
      return this.message(step, model, n, this.content(step, n), this.stop(step));
    },
    stream(step, model, n) {
      const ev = (type, data) => ({ event: type, data: { type, ...data } });
      const out = [ev('message_start', { message: { ...this.message(step, model, n, [], null), usage: { input_tokens: usage.input, output_tokens: 1 } } }), ev('ping', {})];
      this.content(step, n).forEach((block, index) => {
        if (block.type === 'text') {
          out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } }));
          for (const p of pieces(block.text)) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
        } else {
          out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
          for (const p of pieces(JSON.stringify(block.input))) out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }));
        }
        out.push(ev('content_block_stop', { index }));
      });
      out.push(ev('message_delta', { delta: { stop_reason: this.stop(step), stop_sequence: null }, usage: { output_tokens: usage.output } }));
      out.push(ev('message_stop', {}));
      return out;
    },
    error(status, message, step = {}) {
      const types = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error' };
      return { type: 'error', error: { type: step.code ?? types[status] ?? 'api_error', message }, request_id: 'req_fake' };
    },
  },
};
