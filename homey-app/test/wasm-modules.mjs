// Counts the WebAssembly modules this process compiles and instantiates
// (imported first by a test file, before anything loads the package).
export const compiled = [];
export const instances = [];

const { Module, Instance } = WebAssembly;
WebAssembly.Module = function (bytes, ...rest) {
  const m = new Module(bytes, ...rest);
  compiled.push({ bytes: bytes.byteLength, exports: WebAssembly.Module.exports(m).map((e) => e.name) });
  return m;
};
Object.assign(WebAssembly.Module, { exports: Module.exports, imports: Module.imports, customSections: Module.customSections });
WebAssembly.Module.prototype = Module.prototype;
WebAssembly.Instance = function (...args) {
  const i = new Instance(...args);
  instances.push(i);
  return i;
};
WebAssembly.Instance.prototype = Instance.prototype;
