#!/usr/bin/env node
// Tokens of the tools in the first request, per corpus catalog, provider and disclosure mode: `all`, `hybrid`,
// `meta` and `native` (the provider's own tool search: Anthropic's deferred tools and OpenAI Responses'
// namespaces, with our search as the client search; `native` is hybrid on Gemini and Chat Completions).
// Figures are budget()'s estimates of what the model reads (calibrated against o200k, tests/tokens.rs); for
// native, the request also carries the deferred definitions, which the model does not read until a search
// loads them: "native request" is the tools' JSON as sent, in KB. Prints a Markdown table.
//
//   node tests/bench/disclosure.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { corpus } from '../js/helpers.mjs';
import { budget, convert } from '../../pkg/index.mjs';

const files = readdirSync(corpus).filter((f) => f.endsWith('.tools-list.json')).sort();
const fmt = (n) => n.toLocaleString('en-US');
console.log('| catalog (tools) | dialect | all | hybrid | meta | native | native ÷ all | native request |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const f of files) {
  const catalog = JSON.parse(readFileSync(join(corpus, f), 'utf8'));
  const count = (catalog.result?.tools ?? catalog.tools).length;
  let first = true;
  for (const to of ['anthropic', 'openai-responses', 'gemini', 'openai']) {
    const b = budget(catalog, { to });
    const native = b.native ?? b.hybrid;
    const sent = JSON.stringify(convert(catalog, { to, disclosure: 'native' }).tools).length;
    const label = first ? `${f.replace('.tools-list.json', '')} (${count})` : '';
    first = false;
    console.log(`| ${label} | ${to}${b.native === undefined ? ' (hybrid)' : ''} | ${fmt(b.all)} | ${fmt(b.hybrid)} | ${fmt(b.meta)} | ${fmt(native)} | ${((100 * native) / b.all).toFixed(1)}% | ${(sent / 1024).toFixed(1)} KB |`);
  }
}
