/**
 * jsdom, plus the web platform pieces Node has and jsdom lacks (fetch and its Request,
 * Response and Headers, web streams), so components are tested against real fetch semantics
 * with only the network stubbed.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

const FROM_NODE = [
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'AbortController',
  'AbortSignal',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextEncoder',
  'TextDecoder',
  'structuredClone',
];

class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) this.global[name] = globalThis[name];
    // Component tests stub the network; one that forgets should fail, not reach the internet.
    this.global.fetch = (input) =>
      Promise.reject(new TypeError(`Unit tests must stub fetch (requested ${String(input)})`));
  }
}

module.exports = JsdomWithFetchEnvironment;
