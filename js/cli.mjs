#!/usr/bin/env node
// mcp-switchboard command line: reads files or stdin, calls the package,
// prints JSON. Bad input gets one line on stderr and exit code 2.
import { readFileSync } from 'node:fs';
import * as sb from '../pkg/index.mjs';

const USAGE = `usage:
  mcp-switchboard convert --to <dialect> [--strict] [FILE|-]
  mcp-switchboard lint [FILE|-]
  mcp-switchboard calls --from <dialect> --catalog FILE [RESPONSE|-]
  mcp-switchboard validate --catalog FILE --tool NAME [ARGS|-]
  mcp-switchboard dialects
dialects: ${sb.dialects().join(', ')}
FILE is a tools/list response, its result, an array of tools, or several pages; - or nothing reads stdin.
RESPONSE is a model response in the dialect's own shape (plain text for prompted).
validate exits 1 when the arguments do not fit the tool's schema.`;

class UsageError extends Error {}

/** Splits argv into flags (with their values) and positional arguments. */
function parseArgs(argv, spec) {
  const flags = {};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      flags.help = true;
    } else if (a.startsWith('--') && a !== '--') {
      const [name, inline] = a.slice(2).split('=', 2);
      if (!(name in spec)) throw new UsageError(`unknown option --${name}`);
      if (spec[name] === 'bool') {
        flags[name] = true;
      } else {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        flags[name] = v;
      }
    } else {
      rest.push(a);
    }
  }
  return { flags, rest };
}

/** Reads a file, or stdin for '-' or nothing, as bytes (UTF-8 is checked in Rust). */
function readInput(path) {
  try {
    return new Uint8Array(readFileSync(path === undefined || path === '-' ? 0 : path));
  } catch (e) {
    throw new UsageError(`cannot read ${path ?? 'stdin'}: ${e.code ?? e.message}`);
  }
}

function print(value) {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

const commands = {
  convert(argv) {
    const { flags, rest } = parseArgs(argv, { to: 'value', strict: 'bool' });
    if (!flags.to) throw new UsageError('convert needs --to <dialect>');
    if (rest.length > 1) throw new UsageError('convert reads one FILE');
    print(sb.convert(readInput(rest[0]), { to: flags.to, strict: !!flags.strict }));
  },
  lint(argv) {
    const { rest } = parseArgs(argv, {});
    if (rest.length > 1) throw new UsageError('lint reads one FILE');
    print(sb.lint(readInput(rest[0])));
  },
  dialects() {
    print(sb.dialects());
  },
  calls(argv) {
    const { flags, rest } = parseArgs(argv, { from: 'value', catalog: 'value' });
    if (!flags.from) throw new UsageError('calls needs --from <dialect>');
    if (!flags.catalog) throw new UsageError('calls needs --catalog FILE (for the tool names and schemas)');
    if (rest.length > 1) throw new UsageError('calls reads one RESPONSE');
    const catalog = readInput(flags.catalog);
    const { names } = sb.convert(catalog, { to: flags.from });
    const response = Buffer.from(readInput(rest[0])).toString('utf8');
    print(sb.parseCalls(flags.from, response, names, catalog));
  },
  validate(argv) {
    const { flags, rest } = parseArgs(argv, { catalog: 'value', tool: 'value' });
    if (!flags.catalog || !flags.tool) throw new UsageError('validate needs --catalog FILE and --tool NAME');
    if (rest.length > 1) throw new UsageError('validate reads one ARGS');
    const { tools } = sb.readCatalog(readInput(flags.catalog));
    const tool = tools.find((t) => t.name === flags.tool);
    if (!tool) throw new UsageError(`no tool named ${JSON.stringify(flags.tool)} in ${flags.catalog}`);
    const args = Buffer.from(readInput(rest[0])).toString('utf8');
    const result = sb.validateArguments(tool, args);
    print(result);
    if (!result.valid) process.exitCode = 1;
  },
};

const [command, ...argv] = process.argv.slice(2);
try {
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    process.exit(0);
  }
  if (!command) {
    process.stderr.write(USAGE + '\n');
    process.exit(2);
  }
  const fn = commands[command];
  if (!fn) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  fn(argv);
} catch (e) {
  process.stderr.write(`mcp-switchboard: ${e.message}\n`);
  if (e instanceof UsageError) process.stderr.write(`run "mcp-switchboard --help" for usage\n`);
  process.exit(2);
}
