/**
 * In a remote's standalone shell under `npm run dev` only (build/dev-server.ts): one save can
 * make two builds, the second starting before the browser has fetched the first's update. The
 * first update's chunks are then gone from the development server (404), and webpack's hot
 * runtime, its download failed, stays in "prepare": it takes no later update, and the shell never
 * shows the edit. When a newer build is announced while an update is still being prepared, the
 * page is loaded anew instead, which takes the newest build whole.
 */
/* global window */
const emitter = require('webpack/hot/emitter');

if (module.hot) {
  const hot = module.hot;
  // Runs after webpack's own client (webpack/hot/dev-server.js), which starts a check only from
  // "idle": a status still "prepare" here is an update that cannot finish.
  emitter.on('webpackHotUpdate', () => {
    if (hot.status() !== 'prepare') return;
    console.warn('[dev] a newer build overtook the update being prepared: reloading the page');
    window.location.reload();
  });
}
