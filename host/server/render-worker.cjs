/**
 * A render worker: a process of its own that runs remotes' render bundles for the host's server
 * (render-pool.ts starts it, docs/decisions/0033-render-bundles-in-worker-processes.md). The
 * parent starts it with an empty environment, Node's permission model (it may read this file
 * only; no writes, child processes, workers or addons), no code generation from strings, and a
 * memory cap. Before any bundle is loaded it takes away what the permission model leaves: the
 * network modules, the raw bindings, signals to other processes and `fetch`.
 *
 * It reads one JSON message a line on stdin and answers each with one line on stdout:
 *   { id, load: key, code }      → { id, ok: true } | { id, error }
 *   { id, render: key, request } → { id, page: { html, state } } | { id, error }
 *   { id, unload: key }          → { id, ok: true }
 * It ends when its stdin does (the host's server stopped or died).
 */
'use strict';

const Module = require('node:module');
const vm = require('node:vm');

const stdin = process.stdin;
const stdout = process.stdout;
const exit = process.exit.bind(process);

/** Modules a bundle has no business with: the network, other processes, files, the engine's internals. */
const BLOCKED = new Set([
  'child_process',
  'cluster',
  'dgram',
  'diagnostics_channel',
  'dns',
  'fs',
  'http',
  'http2',
  'https',
  'inspector',
  'module',
  'net',
  'repl',
  'tls',
  'trace_events',
  'v8',
  'vm',
  'wasi',
  'worker_threads',
]);

for (const key of Object.keys(process.env)) delete process.env[key];

const load = Module._load;
Module._load = function guardedLoad(request, ...rest) {
  const name = String(request)
    .replace(/^node:/, '')
    .split('/')[0];
  if (BLOCKED.has(name)) throw new Error(`${name} is not available to a render bundle`);
  return load.call(this, request, ...rest);
};
for (const key of ['binding', '_linkedBinding', 'dlopen', 'getBuiltinModule', 'kill', '_kill', 'mainModule']) {
  delete process[key];
}
for (const key of ['fetch', 'WebSocket', 'EventSource', 'Request', 'Response', 'Headers', 'FormData']) {
  delete globalThis[key];
}

/** React's scheduler makes a channel as it loads; a render to a string posts nothing to it. */
const INERT_CHANNEL =
  'class MessageChannel { constructor() { this.port1 = { onmessage: null }; this.port2 = { postMessage() {} }; } }';

/** A context with nothing of this process but a few of Node's web classes: a browser without a share sheet. */
function bundleContext() {
  const context = vm.createContext(
    { TextEncoder, TextDecoder, URL, URLSearchParams },
    { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' },
  );
  vm.runInContext(
    `globalThis.MessageChannel = ${INERT_CHANNEL};
     globalThis.navigator = {};
     globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
     globalThis.module = { exports: {} };
     globalThis.exports = module.exports;`,
    context,
  );
  return context;
}

/** The bundles loaded, by key (their digest): each in its own context. */
const bundles = new Map();
/**
 * One render, its answer serialised in the bundle's context: nothing of it is read here but text,
 * checked by the parent.
 */
const renderCall = new vm.Script(
  'JSON.stringify(((page) => ({ html: page && page.html, state: page && page.state }))(module.exports.render(JSON.parse(request))))',
  { filename: 'render-call.js' },
);

function loadBundle(key, code) {
  const context = bundleContext();
  new vm.Script(code, { filename: 'prerender/render.js' }).runInContext(context);
  if (vm.runInContext('typeof module.exports.render', context) !== 'function') {
    throw new Error('it exports no render function');
  }
  bundles.set(key, context);
}

function render(key, request) {
  const context = bundles.get(key);
  if (!context) throw new Error(`no bundle ${key} is loaded`);
  context.request = JSON.stringify(request);
  try {
    const text = renderCall.runInContext(context);
    if (typeof text !== 'string') throw new Error('render returned no page');
    return JSON.parse(text);
  } finally {
    delete context.request;
  }
}

/** What went wrong, as text of a bounded length: the bundle chooses what it throws. */
function reasonOf(error) {
  const message = error !== null && typeof error === 'object' ? error.message : error;
  return String(message).slice(0, 500);
}

function answer(message) {
  if (message.load !== undefined) {
    loadBundle(message.load, message.code);
    return { ok: true };
  }
  if (message.render !== undefined) return { page: render(message.render, message.request) };
  if (message.unload !== undefined) {
    bundles.delete(message.unload);
    return { ok: true };
  }
  throw new Error('unknown message');
}

function handle(line) {
  let id = null;
  let reply;
  try {
    const message = JSON.parse(line);
    id = message.id;
    reply = { id, ...answer(message) };
  } catch (error) {
    reply = { id, error: reasonOf(error) };
  }
  stdout.write(`${JSON.stringify(reply)}\n`);
}

let pending = '';
stdin.setEncoding('utf8');
stdin.on('data', (chunk) => {
  pending += chunk;
  let end = pending.indexOf('\n');
  while (end >= 0) {
    handle(pending.slice(0, end));
    pending = pending.slice(end + 1);
    end = pending.indexOf('\n');
  }
});
stdin.on('end', () => exit(0));
