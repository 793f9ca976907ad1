/**
 * In a remote's standalone shell under `npm run dev` only (build/dev-server.ts): one save can
 * make two builds, the second announced while the shell still checks for or downloads the
 * first's update. The first update's chunks are then gone from the development server (404), and
 * webpack's hot runtime, its download failed, stays where it was: its own client starts a check
 * only from "idle", so it drops the newer build and takes no later update, and the shell never
 * shows the edit. When a newer build is announced while an update is still being checked for or
 * prepared, the page is loaded anew instead, which takes the newest build whole.
 */
/* global window */

/** `hot`: the module's hot API; `emitter`: webpack's hot-update emitter. */
function reloadWhenOvertaken(hot, emitter, reload) {
  // Before webpack's own client, which moves an idle runtime to "check": the status seen here is
  // the one the newer build found.
  emitter.prependListener('webpackHotUpdate', () => {
    const status = hot.status();
    if (status !== 'check' && status !== 'prepare') return;
    console.warn('[dev] a newer build overtook the update being prepared: reloading the page');
    reload();
  });
}

if (module.hot) {
  reloadWhenOvertaken(module.hot, require('webpack/hot/emitter'), () => window.location.reload());
}

module.exports = { reloadWhenOvertaken };
