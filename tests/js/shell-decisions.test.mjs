// The JS shell only does I/O: no file of the gateway, the upstream
// connection or the Homey app computes a deadline, writes a JSON-RPC error
// code, a protocol method name or a timeout's message of its own. Those
// come from the package (Engine.pollTimeout, UpstreamClient's relay and
// decline, checkSourceName, ...). Read with TypeScript's parser, so that
// comments and JSDoc types (where such names may be mentioned) are not code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/** MCP and JSON-RPC method names: `tools/call`, `notifications/cancelled`, `initialize`, ... */
const METHOD = /^(?:(?:tools|resources|prompts|completion|sampling|elicitation|roots|logging|notifications|server|subscriptions)\/[A-Za-z_/]+|initialize|ping)$/;
/** A JSON-RPC error code (reserved range and MCP's own) */
const CODE = /^-?32\d{3}$/;
/** A clock reading in arithmetic */
const CLOCK = /^(?:Date\.now|performance\.now)\(\)$/;

/**
 * Where a file decides what the package should decide: one line each, `path:line: what`.
 * @param {string} file
 * @param {string} [text] its text (default: read from the file)
 * @returns {string[]}
 */
function decisions(file, text = readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {string[]} */
  const found = [];
  const at = (/** @type {ts.Node} */ node, /** @type {string} */ what) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${relative(root, file)}:${line + 1}: ${what}`);
  };
  const visit = (/** @type {ts.Node} */ node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const s = node.text;
      if (METHOD.test(s)) at(node, `a protocol method name ${JSON.stringify(s)}`);
      if (CODE.test(s.trim())) at(node, `a JSON-RPC error code ${JSON.stringify(s)}`);
      if (/\btimed out after\b/.test(s)) at(node, `a timeout's message ${JSON.stringify(s)}`);
    } else if (ts.isNumericLiteral(node) && /^32\d{3}$/.test(node.text)) {
      const p = node.parent;
      if (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.MinusToken) at(p, `a JSON-RPC error code -${node.text}`);
    } else if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      const left = node.left.getText(source);
      const right = node.right.getText(source);
      if (op === ts.SyntaxKind.PlusToken && (CLOCK.test(left) || CLOCK.test(right))) at(node, `timeout arithmetic ${node.getText(source)}`);
      if (op === ts.SyntaxKind.MinusToken && /deadline$/i.test(left)) at(node, `timeout arithmetic ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The .js and .mjs files under a folder (node_modules left out).
 * @param {string} dir
 * @returns {string[]}
 */
function scripts(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.m?js$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${join('/', 'node_modules')}`))
    .sort();
}

const shell = ['dispatch.mjs', 'gateway.mjs', 'upstream.mjs', 'stdio.mjs'].map((f) => join(root, 'js', f));
const homey = [...scripts(join(root, 'homey-app', 'lib')), join(root, 'homey-app', 'app.js'), join(root, 'homey-app', 'api.js')];

test('the gateway, the upstream connection and the session decide nothing the package decides', () => {
  assert.deepEqual(shell.flatMap((f) => decisions(f)), []);
});

// the Homey app too (it shows the gate's lockouts rather than keeping its own table)
test('the Homey app decides nothing the package decides', () => {
  const found = homey.flatMap((f) => decisions(f));
  assert.deepEqual(found, [], `the Homey app still decides:\n${found.join('\n')}`);
});

test('the check finds each kind of decision, outside comments only', () => {
  const text = [
    '// Date.now() + 1; deadline - now; -32603; \'tools/call\'',
    "/** @type {'tools/call' | 'prompts/get'} -32602 */",
    'const ok = [at - Date.now(), now() + 1, 32603, "tool", "tools", "a/b"];',
    'const a = Date.now() + ms;',
    'const b = p.deadline - Date.now();',
    'refuse(-32603);',
    "send('tools/call', { name });",
    'ask("sampling/createMessage");',
    'const m = `${tool} timed out after ${s}`;',
    "const c = '-32602';",
    '/* performance.now() + 5 */ const d = 1 + performance.now();',
  ].join('\n');
  assert.deepEqual(
    decisions(join(root, 'sample.js'), text),
    [
      'sample.js:4: timeout arithmetic Date.now() + ms',
      'sample.js:5: timeout arithmetic p.deadline - Date.now()',
      'sample.js:6: a JSON-RPC error code -32603',
      'sample.js:7: a protocol method name "tools/call"',
      'sample.js:8: a protocol method name "sampling/createMessage"',
      'sample.js:9: a timeout\'s message " timed out after "',
      'sample.js:10: a JSON-RPC error code "-32602"',
      'sample.js:11: timeout arithmetic 1 + performance.now()',
    ],
  );
});
