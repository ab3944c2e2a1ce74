// The package's JS API, derived from its TypeScript declarations (which
// wasm-bindgen writes from src/wasm/): readSignatures() reads what each
// export takes, apiModule() writes the module that checks every argument
// against its declared type before the call reaches the WebAssembly
// module. A value of the wrong type passed to the generated glue would be
// copied into wasm memory as if it were the right one and trap; checked,
// it is a TypeError with code "usage" that names the argument.
// Used by js/build.mjs and by the tests that call every export wrongly.
import ts from 'typescript';

/** The runtime kinds a declared type admits, each a bit of a mask. */
export const KINDS = {
  string: 1,
  number: 2,
  boolean: 4,
  undefined: 8,
  null: 16,
  object: 32,
  array: 64,
  bytes: 128,
  function: 256,
  bigint: 512,
  symbol: 1024,
};
const ALL = Object.values(KINDS).reduce((a, b) => a | b, 0);
const WORDS = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  undefined: 'undefined',
  null: 'null',
  object: 'an object',
  array: 'an array',
  bytes: 'a Uint8Array',
  function: 'a function',
  bigint: 'a bigint',
  symbol: 'a symbol',
};

/** The kinds of a TypeScript type, as a mask; throws for a type no runtime check can follow. */
function kindsOf(type, checker) {
  const f = type.flags;
  const T = ts.TypeFlags;
  if (f & (T.Any | T.Unknown)) return ALL;
  if (type.isUnion()) return type.types.reduce((m, t) => m | kindsOf(t, checker), 0);
  if (f & T.TypeParameter) {
    const c = checker.getBaseConstraintOfType(type);
    return c && c !== type ? kindsOf(c, checker) : ALL;
  }
  if (f & T.StringLike) return KINDS.string;
  if (f & T.NumberLike) return KINDS.number;
  if (f & T.BooleanLike) return KINDS.boolean;
  if (f & T.BigIntLike) return KINDS.bigint;
  if (f & T.ESSymbolLike) return KINDS.symbol;
  if (f & (T.Undefined | T.Void)) return KINDS.undefined;
  if (f & T.Null) return KINDS.null;
  // `object`: anything but a primitive
  if (f & T.NonPrimitive) return KINDS.object | KINDS.array | KINDS.bytes | KINDS.function;
  if (type.isIntersection()) return type.types.reduce((m, t) => m & kindsOf(t, checker), ALL);
  if (f & T.Object) {
    if (checker.isArrayType(type) || checker.isTupleType(type)) return KINDS.array;
    const name = type.getSymbol()?.getName();
    if (name === 'Uint8Array') return KINDS.bytes;
    if (type.getCallSignatures().length > 0) return KINDS.function;
    return KINDS.object;
  }
  throw new Error(`no runtime check for the type ${checker.typeToString(type)}`);
}

/** Whether a declaration carries `export`. */
const exported = (node) => (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0;

/**
 * What every export of a declaration file takes.
 * @param {string} file a .d.ts (or .d.mts) file
 * @returns {{functions: {name: string, params: Param[]}[], classes: {name: string, ctor: Param[], methods: {name: string, params: Param[]}[]}[]}}
 *   with Param = {name: string, optional: boolean, mask: number, type: string}
 */
export function readSignatures(file) {
  const program = ts.createProgram([file], {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
    throw new Error(`the declarations do not compile:\n${ts.formatDiagnostics(problems, host)}`);
  }
  const checker = program.getTypeChecker();
  const params = (list) =>
    list.map((p) => {
      const optional = Boolean(p.questionToken);
      const type = checker.getTypeAtLocation(p);
      return {
        name: p.name.getText().replace(/^_/, ''),
        optional,
        mask: kindsOf(type, checker) | (optional ? KINDS.undefined : 0),
        type: p.type ? p.type.getText() : 'unknown',
      };
    });
  const functions = [];
  const classes = [];
  for (const node of program.getSourceFile(file).statements) {
    if (ts.isFunctionDeclaration(node) && node.name && exported(node)) {
      if (functions.some((f) => f.name === node.name.text)) throw new Error(`${node.name.text} is declared twice (overloads are not checked)`);
      functions.push({ name: node.name.text, params: params(node.parameters) });
    } else if (ts.isClassDeclaration(node) && node.name && exported(node)) {
      const ctor = node.members.find(ts.isConstructorDeclaration);
      const methods = node.members
        .filter((m) => ts.isMethodDeclaration(m) && ts.isIdentifier(m.name) && m.name.text !== 'free')
        .map((m) => ({ name: m.name.text, params: params(m.parameters) }));
      classes.push({ name: node.name.text, ctor: ctor ? params(ctor.parameters) : [], methods });
    }
  }
  return { functions, classes };
}

/** The runtime part of the checked module: the kind test, the errors and the loading state. */
const RUNTIME = (limit, wasmPath) => `const LIMIT = ${limit};
const KINDS = ${JSON.stringify(Object.entries(KINDS).map(([name, bit]) => [WORDS[name], bit]))};

function kind(v) {
  switch (typeof v) {
    case 'string': return 1;
    case 'number': return 2;
    case 'boolean': return 4;
    case 'undefined': return 8;
    case 'function': return 256;
    case 'bigint': return 512;
    case 'symbol': return 1024;
    default: return v === null ? 16 : Array.isArray(v) ? 64 : v instanceof Uint8Array ? 128 : 32;
  }
}

function words(mask) {
  const w = KINDS.filter(([, bit]) => mask & bit).map(([name]) => name);
  return w.length > 1 ? \`\${w.slice(0, -1).join(', ')} or \${w[w.length - 1]}\` : w[0];
}

function error(Type, code, message) {
  const e = new Type(message);
  e.code = code;
  e.pointer = '';
  return e;
}

/** Checks one argument: its kind against the declared mask, strings and bytes against the input limit. */
function arg(v, mask, where, name) {
  const k = kind(v);
  if ((mask & k) === 0) throw error(TypeError, 'usage', \`\${where}: \${name} must be \${words(mask)}, not \${words(k)}\`);
  if (k === 1 && v.length > LIMIT) throw error(RangeError, 'limit', \`\${where}: \${name} is \${v.length} characters long; the limit is \${LIMIT}\`);
  if (k === 128 && v.byteLength > LIMIT) throw error(RangeError, 'limit', \`\${where}: \${name} is \${v.byteLength} bytes long; the limit is \${LIMIT}\`);
}

/** Checks that a method is called on a live object of its class (wasm-bindgen's \`__wbg_ptr\` is 0 once freed). */
function self(obj, Class, name, where) {
  if (!(obj instanceof Class)) throw error(TypeError, 'usage', \`\${where} must be called on \${/^[AEIOU]/.test(name) ? 'an' : 'a'} \${name}\`);
  if (obj.__wbg_ptr === 0) throw error(Error, 'usage', \`\${where}: this \${name} was freed\`);
}

/** Checks an argument declared as one of the module's classes: a live object of that class. */
function instance(v, Class, name, where, param) {
  if (!(v instanceof Class)) throw error(TypeError, 'usage', \`\${where}: \${param} must be \${/^[AEIOU]/.test(name) ? 'an' : 'a'} \${name}, not \${words(kind(v))}\`);
  if (v.__wbg_ptr === 0) throw error(Error, 'usage', \`\${where}: \${param} was freed\`);
}

let ready = false;
let loading;

function loaded(where) {
  if (!ready) throw error(Error, 'usage', \`\${where}: the WebAssembly module is not loaded yet; await init() first\`);
}

/**
 * Loads the WebAssembly module; later calls do nothing. \`source\` is where the
 * wasm comes from: its URL (or a path fetch() takes), a fetch() Response or a
 * promise of one, its bytes, or a compiled WebAssembly.Module.
 */
export async function init(source) {
  if (source !== undefined) arg(source, 1 | 32 | 128, 'init()', 'source');
  if (ready) return;
  if (source === undefined) {
    throw error(TypeError, 'usage', 'init(): give the wasm: its URL, a fetch() Response, its bytes or a WebAssembly.Module (the file is ${wasmPath})');
  }
  loading ??= glueInit({ module_or_path: source }).finally(() => { loading = undefined; });
  await loading;
  ready = true;
}

/** Loads the WebAssembly module from its bytes or a compiled WebAssembly.Module, at once; later calls do nothing. */
export function initSync(source) {
  arg(source, 32 | 128, 'initSync()', 'source');
  if (ready) return;
  if (loading) throw error(Error, 'usage', 'initSync(): init() is loading the module already; await it');
  glueInitSync({ module: source });
  ready = true;
}
`;

/**
 * The checked API as an ES module over the wasm-bindgen glue at `glue`.
 * @param {ReturnType<typeof readSignatures>} sig
 * @param {{glue: string, limit: number, wasmPath?: string}} options `wasmPath`: the module's file, for messages
 */
export function apiModule(sig, { glue, limit, wasmPath = 'mcp-switchboard/mcp_switchboard_bg.wasm' }) {
  const lines = [
    '// Generated by js/build.mjs from the TypeScript declarations (js/checked-api.mjs):',
    '// every argument is checked against its declared type before the call',
    '// reaches the WebAssembly module.',
    `import glueInit, { initSync as glueInitSync } from '${glue}';`,
    `import * as raw from '${glue}';`,
    '',
    RUNTIME(limit, wasmPath),
  ];
  const vars = (params) => params.map((_, i) => `a${i}`).join(', ');
  const classNames = new Set(sig.classes.map((c) => c.name));
  // an argument declared as one of the module's classes is checked for an instance of it too
  const checks = (params, where) =>
    params.flatMap((p, i) => [
      `  arg(a${i}, ${p.mask}, '${where}', '${p.name}');`,
      ...(classNames.has(p.type) ? [`  instance(a${i}, raw.${p.type}, '${p.type}', '${where}', '${p.name}');`] : []),
    ]);
  for (const f of sig.functions) {
    lines.push(
      `export function ${f.name}(${vars(f.params)}) {`,
      `  loaded('${f.name}()');`,
      ...checks(f.params, `${f.name}()`),
      `  return raw.${f.name}(${vars(f.params)});`,
      '}',
      '',
    );
  }
  for (const c of sig.classes) {
    lines.push(`export class ${c.name} extends raw.${c.name} {`);
    lines.push(
      `  constructor(${vars(c.ctor)}) {`,
      `    loaded('new ${c.name}()');`,
      ...checks(c.ctor, `new ${c.name}()`).map((l) => `  ${l}`),
      `    super(${vars(c.ctor)});`,
      '  }',
    );
    for (const m of c.methods) {
      const where = `${c.name}.${m.name}()`;
      lines.push(
        `  ${m.name}(${vars(m.params)}) {`,
        `    self(this, ${c.name}, '${c.name}', '${where}');`,
        ...checks(m.params, where).map((l) => `  ${l}`),
        `    return super.${m.name}(${vars(m.params)});`,
        '  }',
      );
    }
    // free() twice does nothing, and `using` frees the same way
    lines.push('  free() {', '    if (this.__wbg_ptr !== 0) super.free();', '  }', '}');
    lines.push(`if (Symbol.dispose) ${c.name}.prototype[Symbol.dispose] = ${c.name}.prototype.free;`, '');
  }
  return lines.join('\n');
}

/** The names a checked module exports: every declared function and class, init and initSync. */
export function exportNames(sig) {
  return [...sig.functions.map((f) => f.name), ...sig.classes.map((c) => c.name), 'init', 'initSync'];
}

/** Declarations of init() and initSync(), for the published types. */
export const INIT_TYPES = `
/** The instances of a global class, where the environment declares it (the DOM lib, @types/node), else never. */
type GlobalInstance<K extends string> = typeof globalThis extends { [k in K]: abstract new (...args: never[]) => infer T } ? T : never;
/** A compiled WebAssembly.Module, where the environment declares it. */
type WasmModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : never;
/** Where init() takes the wasm from: its URL (or a path fetch() takes), a fetch() Response or a promise of one, its bytes, or a compiled WebAssembly.Module. */
export type WasmSource = string | GlobalInstance<"URL"> | GlobalInstance<"Request"> | GlobalInstance<"Response"> | PromiseLike<GlobalInstance<"Response">> | ArrayBuffer | ArrayBufferView | WasmModule;
/**
 * Loads the WebAssembly module; later calls do nothing. Needed only with \`mcp-switchboard/slim\`: the
 * other entries load the module when they are imported (in Node at once, elsewhere with top-level await).
 */
export function init(source: WasmSource): Promise<void>;
/** Loads the WebAssembly module from its bytes or a compiled WebAssembly.Module, at once; later calls do nothing. */
export function initSync(source: ArrayBuffer | ArrayBufferView | WasmModule): void;
`;
