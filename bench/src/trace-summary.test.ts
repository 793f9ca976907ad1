import { summarizeTrace, type TraceEvent } from './trace-summary';

const PID = 7;
const MAIN = 1;
const URL = 'http://127.0.0.1:5300/';

/** A trace whose navigation starts at 1 s (in µs, as Chrome writes them). */
function trace(...tasks: Omit<TraceEvent, 'pid' | 'tid' | 'ph'>[]): TraceEvent[] {
  return [
    { name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid: MAIN, args: { name: 'CrRendererMain' } },
    { name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid: 2, args: { name: 'Compositor' } },
    {
      name: 'navigationStart',
      ph: 'R',
      ts: 1_000_000,
      pid: PID,
      tid: MAIN,
      args: { data: { documentLoaderURL: URL } },
    },
    ...tasks.map((task) => ({ ...task, ph: 'X', pid: PID, tid: MAIN })),
  ];
}

describe('summarizeTrace', () => {
  it('sums the self time of each kind of work between the document and FCP, nested events once', () => {
    const events = trace(
      // Before the document's last byte (200 ms): not counted.
      { name: 'RunTask', ts: 1_100_000, dur: 50_000 },
      // 300-400 ms: a parse task with a CSS parse of 20 ms inside.
      { name: 'RunTask', ts: 1_300_000, dur: 100_000 },
      { name: 'ParseHTML', ts: 1_300_000, dur: 100_000 },
      { name: 'CSSParserImpl::parseStyleSheet', ts: 1_310_000, dur: 20_000 },
      // 450-500 ms: a frame, layout 30 ms and paint 10 ms, 10 ms of the task itself.
      { name: 'RunTask', ts: 1_450_000, dur: 50_000 },
      { name: 'Layout', ts: 1_450_000, dur: 30_000 },
      { name: 'Paint', ts: 1_480_000, dur: 10_000 },
    );
    events.push({ name: 'firstContentfulPaint', ph: 'R', ts: 1_520_000, pid: PID, tid: MAIN });
    // On another thread: not the page's main thread.
    events.push({ name: 'Layout', ph: 'X', ts: 1_300_000, dur: 100_000, pid: PID, tid: 2 });

    const summary = summarizeTrace(events, URL, 200);

    expect(summary.fcp).toBe(520);
    expect(Object.fromEntries(summary.busy.map(({ kind, ms }) => [kind, ms]))).toEqual({
      'parse HTML': 80,
      'parse CSS': 20,
      layout: 30,
      'paint and commit a frame': 10,
      'other (tasks, messages)': 10,
    });
    expect(summary.idle).toBe(320 - 150);
  });

  it('says what the trace lacks', () => {
    expect(() => summarizeTrace([], URL, 0)).toThrow('no navigationStart');
    expect(() => summarizeTrace(trace(), URL, 0)).toThrow('no firstContentfulPaint');
  });
});
