'use strict';
/**
 * Preloaded (`node --require`) into every server the bench starts, which it spawns with an IPC
 * channel: when the bench goes away, even killed outright, the channel closes and the server
 * stops as on SIGTERM. The channel itself keeps nothing alive.
 */
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
