/** The cap behind a metric's label sets: new ones past it count under `other`, told once. */
import { Counter, Registry } from 'prom-client';
import { cappedCounter, LabelCap } from './label-cap';

it('counts a new label set past the cap under one label set of others, logged once; known ones go on counting', async () => {
  const registry = new Registry();
  const counter = new Counter({
    name: 'pages_total',
    help: 'pages',
    labelNames: ['route', 'build'],
    registers: [registry],
  });
  const log = { warn: jest.fn() };
  const pages = cappedCounter(counter, new LabelCap('pages_total', ['route', 'build'], 2, log));

  pages.inc({ route: '/a', build: 'b1' });
  pages.inc({ route: '/b', build: 'b1' });
  pages.inc({ route: '/c', build: 'b1' });
  pages.inc({ route: '/d', build: 'b2' }, 2);
  pages.inc({ route: '/a', build: 'b1' });

  const values = (await counter.get()).values.map(({ labels, value }) => [labels, value]);
  expect(values).toEqual([
    [{ route: '/a', build: 'b1' }, 2],
    [{ route: '/b', build: 'b1' }, 1],
    [{ route: 'other', build: 'other' }, 3],
  ]);
  expect(log.warn).toHaveBeenCalledTimes(1);
  expect(log.warn).toHaveBeenCalledWith({ metric: 'pages_total', cap: 2 }, expect.stringContaining('most label sets'));
});
